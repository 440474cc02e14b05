// What a reader does on the map beyond looking at it: the room card, Find (its index and list)
// and routes. One chunk, loaded with the first of them: the map code they share with the page
// then comes as one chunk on a first visit rather than several (each costs bytes on the wire).
export { buildFindIndex } from '../map/find.ts';
export { attachFindList } from './find-list.ts';
export { createMapInfo } from './map-info.ts';
export { routeView } from './map-route.ts';
