import * as audit from './audit.ts';
import * as blockEngine from './block-engine.ts';
import * as blocklist from './blocklist.ts';
import * as claimCodes from './claim-codes.ts';
import * as commandScope from './command-scope.ts';
import * as detections from './detections.ts';
import * as generationQueue from './generation-queue.ts';
import * as mapCache from './map-cache.ts';
import * as maps from './maps.ts';
import { manualClock, redisClock, type Clock } from './clock.ts';
import type { StoreContext } from './context.ts';
import * as rateCounter from './rate-counter.ts';
import { connectRedis, type StoreRedis } from './redis.ts';
import { parseSentinelUrl } from './redis-url.ts';
import { masterLease, served } from './master-lease.ts';
import { Replication, type ReplicaAcks } from './replication.ts';
import { acknowledged, type Unconfirmed } from './acknowledged.ts';
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
  listOwnedRegistrations: registrations.listOwnedRegistrations,
  listRegistrationPage: registrations.listRegistrationPage,
  checkSelfClaim: selfClaim.checkSelfClaim,
  issueSelfClaim: selfClaim.issueSelfClaim,
  issueClaimCode: claimCodes.issueClaimCode,
  cancelClaimCode: claimCodes.cancelClaimCode,
  listClaimCodes: claimCodes.listClaimCodes,
  listMemberCodes: claimCodes.listMemberCodes,
  claimWithCode: claimCodes.claimWithCode,
  getReview: reviews.getReview,
  listReviews: reviews.listReviews,
  decideReview: reviews.decideReview,
  nextReviewNotice: reviews.nextReviewNotice,
  markReviewPosted: reviews.markReviewPosted,
  reviewsAwaitingPost: reviews.reviewsAwaitingPost,
  sweepReviews: reviews.sweepReviews,
  markReviewReminded: reviews.markReviewReminded,
  recordAudit: audit.recordAudit,
  listAudit: audit.listAudit,
  auditFollowed: audit.auditFollowed,
  nextAuditEntries: audit.nextAuditEntries,
  markAuditFollowed: audit.markAuditFollowed,
  lastCommandGuild: commandScope.lastCommandGuild,
  rememberCommandGuild: commandScope.rememberCommandGuild,
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
type Name = keyof Operations;
type Answer<K extends Name> = Awaited<ReturnType<Operations[K]>>;

/**
 * The writes whose answer a user relies on, answered only once replicated (acknowledged.ts): a
 * credential shown once, a revoke, a claim code, a review decision, the blocklist, the minimum
 * version. A report confirms its own, when it answers a window (block-engine.ts). An HTTP key not
 * confirmed is revoked at once: it was never shown.
 */
const acknowledgedWrites: { [K in Name]?: Unconfirmed<Answer<K>> | true } = {
  issueHttpKey: (ctx, key) => registrations.revokeRegistration(ctx, key.serverId),
  revokeRegistration: true,
  issueSelfClaim: true,
  claimWithCode: true,
  issueClaimCode: true,
  cancelClaimCode: true,
  decideReview: true,
  addToBlocklist: true,
  removeFromBlocklist: true,
  setMinimumVersion: true,
  clearMinimumVersion: true,
};

/** The reads that answer a map, a preview, a job or a seed list: only from the current master. */
const servedReads = new Set<Name>(['readMap', 'readJob', 'readSeedPage', 'checkSeedBlock', 'mayBeHidden']);

type Op = (ctx: StoreContext, ...args: unknown[]) => unknown;

function bindOperation(ctx: StoreContext, name: Name, fn: Op): (...args: unknown[]) => unknown {
  const ack = acknowledgedWrites[name] as Unconfirmed<unknown> | true | undefined;
  if (servedReads.has(name)) {
    return (...args) => (fn(ctx, ...args) as Promise<unknown>).then((answer) => served(ctx.master, answer));
  }
  if (ack !== undefined) {
    return async (...args) => acknowledged(ctx, await fn(ctx, ...args), ack === true ? undefined : ack);
  }
  return (...args) => fn(ctx, ...args);
}

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
    Object.entries(operations).map(([name, fn]) => [name, bindOperation(ctx, name as Name, fn as Op)]),
  ) as Bound;
  return {
    ...bound,
    ctx,
    async close() {
      ctx.master.stop();
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

/** Every acknowledged write of a store is confirmed behind an INCR of this key (replication.ts). */
const FENCE_KEY = 'acks:fence';

/** Connects to Redis and binds a store; time is Redis's (or the manual clock, also in Redis). */
export function openStore({
  redisUrl,
  prefix,
  clock,
  name,
  replicaAcks = { replicas: 0, timeoutMs: 0 },
}: OpenStoreOptions): Store {
  const waitMs = replicaAcks.replicas !== 0 ? replicaAcks.timeoutMs : 0;
  const master = { address: null as string | null };
  const redis: StoreRedis = connectRedis({
    url: redisUrl,
    name,
    waitMs,
    onMasterAddress: (address) => (master.address = address),
  });
  const lease = masterLease(redis, parseSentinelUrl(redisUrl), () => master.address);
  const chosen: Clock = clock === 'manual' ? manualClock(redis, prefix) : redisClock(redis);
  const replication = new Replication(redis, replicaAcks, `${prefix}${FENCE_KEY}`);
  return bindStore({
    redis,
    prefix,
    clock: chosen,
    replicaAcks,
    confirmReplicated: replication.confirm,
    replication,
    master: lease,
  });
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
export { ReplicationError, type ReplicaAcks, type ReplicaState } from './replication.ts';
export { NotMasterError, type LeaseChange, type MasterLease } from './master-lease.ts';
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
export {
  ClaimCodeLimitError,
  type CodeClaimResult,
  type IssuedClaimCode,
  type LiveClaimCode,
  type MemberClaimCode,
} from './claim-codes.ts';
export { AUDIT_ACTIONS, CLI_ACTOR, type AuditAction, type AuditEntry } from './audit.ts';
export { SUPERSEDED_MEANING, type Review, type ReviewDecision, type ReviewStatus } from './reviews.ts';
export type { JobRead, MapRead, SeedListItem, SeedPage } from './maps.ts';
export type { MapBodies, MapCacheState } from './map-cache.ts';
export type { GeneratedMap } from './generation-queue.ts';
export type { OverviewCounts, ProtectionStats } from './stats.ts';
export { isBelowMinimum, SemverSchema, type VersionInfo } from './versions.ts';
