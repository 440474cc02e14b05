import * as blockEngine from './block-engine.ts';
import * as blocklist from './blocklist.ts';
import * as claimCodes from './claim-codes.ts';
import * as detections from './detections.ts';
import * as generationQueue from './generation-queue.ts';
import * as mapCache from './map-cache.ts';
import * as maps from './maps.ts';
import { manualClock, redisClock, type Clock } from './clock.ts';
import type { StoreContext } from './context.ts';
import * as rateCounter from './rate-counter.ts';
import { connectRedis, type StoreRedis } from './redis.ts';
import { replicaWaiter, type ReplicaAcks } from './replication.ts';
import * as registrations from './registrations.ts';
import * as reportAdmission from './report-admission.ts';
import * as reviews from './reviews.ts';
import * as selfClaim from './self-claim.ts';
import * as stats from './stats.ts';
import * as versions from './versions.ts';
import * as workers from './workers.ts';

// The store package: every operation on shared state, used alike by the API, the bot, the
// generator and the operator CLI. Each operation is a plain function of (context, input); a
// Store binds them to one context.

const operations = {
  reportSeed: blockEngine.reportSeed,
  admitReport: reportAdmission.admitReport,
  admitAndDecideReport: reportAdmission.admitAndDecideReport,
  checkSeedBlock: blockEngine.checkSeedBlock,
  mayBeHidden: blockEngine.mayBeHidden,
  buildHiddenSeeds: blockEngine.buildHiddenSeeds,
  settleExpiredWindows: blockEngine.settleExpiredWindows,
  openWindowSeeds: blockEngine.openWindowSeeds,
  listOpenWindows: blockEngine.listOpenWindows,
  issueHttpKey: registrations.issueHttpKey,
  authenticate: registrations.authenticate,
  revokeRegistration: registrations.revokeRegistration,
  getRegistration: registrations.getRegistration,
  listRegistrations: registrations.listRegistrations,
  listRegistrationPage: registrations.listRegistrationPage,
  checkSelfClaim: selfClaim.checkSelfClaim,
  issueSelfClaim: selfClaim.issueSelfClaim,
  issueClaimCode: claimCodes.issueClaimCode,
  cancelClaimCode: claimCodes.cancelClaimCode,
  listClaimCodes: claimCodes.listClaimCodes,
  claimWithCode: claimCodes.claimWithCode,
  getReview: reviews.getReview,
  listReviews: reviews.listReviews,
  decideReview: reviews.decideReview,
  nextReviewNotice: reviews.nextReviewNotice,
  markReviewPosted: reviews.markReviewPosted,
  reviewsAwaitingPost: reviews.reviewsAwaitingPost,
  addToBlocklist: blocklist.addToBlocklist,
  removeFromBlocklist: blocklist.removeFromBlocklist,
  listBlocklist: blocklist.listBlocklist,
  readMap: maps.readMap,
  readJob: maps.readJob,
  readSeedPage: maps.readSeedPage,
  migrateSeedIndex: maps.migrateSeedIndex,
  dumpedSeeds: maps.dumpedSeeds,
  refreshSeedSummaries: maps.refreshSeedSummaries,
  cacheMap: mapCache.cacheMap,
  trimMapCache: mapCache.trimMapCache,
  touchCachedMaps: mapCache.touchCachedMaps,
  readMapCacheState: mapCache.readMapCacheState,
  takeJob: generationQueue.takeJob,
  startJob: generationQueue.startJob,
  finishJob: generationQueue.finishJob,
  failJob: generationQueue.failJob,
  requeueStaleJobs: generationQueue.requeueStaleJobs,
  queueDepth: generationQueue.queueDepth,
  recordGenerationTime: generationQueue.recordGenerationTime,
  beatWorker: workers.beatWorker,
  forgetWorker: workers.forgetWorker,
  countLiveWorkers: workers.countLiveWorkers,
  readGenerationTotals: generationQueue.readGenerationTotals,
  recordDetection: detections.recordDetection,
  readOverview: stats.readOverview,
  readProtection: stats.readProtection,
  addRequests: stats.addRequests,
  getVersionInfo: versions.getVersionInfo,
  setMinimumVersion: versions.setMinimumVersion,
  clearMinimumVersion: versions.clearMinimumVersion,
  saveLatestRelease: versions.saveLatestRelease,
  countRequest: rateCounter.countRequest,
};

type Operations = typeof operations;
type Bound = {
  [K in keyof Operations]: Operations[K] extends (ctx: StoreContext, ...args: infer A) => infer R
    ? (...args: A) => R
    : never;
};

export type Store = Bound & {
  readonly ctx: StoreContext;
  close(): Promise<void>;
};

export function bindStore(ctx: StoreContext): Store {
  const bound = Object.fromEntries(
    Object.entries(operations).map(([name, fn]) => [
      name,
      (...args: unknown[]) => (fn as (c: StoreContext, ...a: unknown[]) => unknown)(ctx, ...args),
    ]),
  ) as Bound;
  return {
    ...bound,
    ctx,
    async close() {
      ctx.redis.disconnect();
    },
  };
}

export interface OpenStoreOptions {
  redisUrl: string;
  prefix: string;
  clock: 'system' | 'manual';
  /** Shown in CLIENT LIST. */
  name: string;
  /** Replicas that must confirm an acknowledged write (REDIS_REPLICAS_ACK); none by default. */
  replicaAcks?: ReplicaAcks;
}

/** Connects to Redis and binds a store; time is Redis's (or the manual clock, also in Redis). */
export function openStore({
  redisUrl,
  prefix,
  clock,
  name,
  replicaAcks = { replicas: 0, timeoutMs: 0 },
}: OpenStoreOptions): Store {
  const waitMs = replicaAcks.replicas > 0 ? replicaAcks.timeoutMs : 0;
  const redis: StoreRedis = connectRedis({ url: redisUrl, name, waitMs });
  const chosen: Clock = clock === 'manual' ? manualClock(redis, prefix) : redisClock(redis);
  const confirmReplicated = replicaWaiter(redis, replicaAcks);
  return bindStore({ redis, prefix, clock: chosen, replicaAcks, confirmReplicated });
}

export * from './constants.ts';
export { redisTime, type Clock, type ManualClock } from './clock.ts';
export type { StoreContext } from './context.ts';
export {
  DbUnavailableError,
  failureFields,
  isDbUnavailable,
  isRedisRefusal,
  isStoreFailure,
} from './errors.ts';
export { connectRedis, redisReady, type StoreRedis } from './redis.ts';
export { ReplicationError, type ReplicaAcks } from './replication.ts';
export { ensureScriptsLoaded } from './scripts/index.ts';
export { type OpenWindow, type ReportDecision, type SeedBlock } from './block-engine.ts';
export {
  BadCursorError,
  TooManyKeysError,
  type AuthenticatedKey,
  type IssuedCredential,
  type Registration,
  type RegistrationPage,
} from './registrations.ts';
export type { SelfClaimRefusal } from './self-claim.ts';
export type { ReportAdmission, ReportRefusal, ReportSender } from './report-admission.ts';
export type { CodeClaimResult, IssuedClaimCode, LiveClaimCode } from './claim-codes.ts';
export { SUPERSEDED_MEANING, type Review, type ReviewDecision, type ReviewStatus } from './reviews.ts';
export type { JobRead, MapRead, SeedListItem, SeedPage } from './maps.ts';
export type { MapBodies, MapCacheState } from './map-cache.ts';
export type { GeneratedMap } from './generation-queue.ts';
export type { OverviewCounts, ProtectionStats } from './stats.ts';
export { isBelowMinimum, SemverSchema, type VersionInfo } from './versions.ts';
