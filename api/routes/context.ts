import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type {
  AuthenticatedKey,
  RateLimitName,
  ReportRefusal,
  ReportSender,
  Store,
} from '../../store/index.ts';
import { bearerToken } from '../http/authenticate.ts';
import { clientIp } from '../http/client-ip.ts';
import { invalidCredential } from '../http/http-error.ts';
import { sendJson } from '../http/json-answer.ts';
import { applyLimit, ipLimitKey, rateLimited } from '../http/rate-limit.ts';
import type { TrustProxy } from '../http/trust-proxy.ts';

/** What a route's handler is given, as its declaration types it (route.ts). */
export interface RouteInput {
  body: unknown;
  params: object;
  query: object;
  /** The step limits the route declares: the names `limit` takes. */
  steps: RateLimitName;
}
type Field<I, K extends keyof RouteInput, D> = I extends Record<K, infer T> ? T : D;

/** What a request's context needs of the route it runs on, made once per route (pipeline.ts). */
export interface RouteRuntime {
  readonly id: string;
  readonly store: Store;
  readonly trustProxy: TrustProxy;
  /** RATE_LIMIT_MULTIPLIER. */
  readonly multiplier: number;
  /** The step limits the route declares. */
  readonly steps: ReadonlySet<RateLimitName>;
}

/**
 * One request as its route's handler sees it: the typed body, parameters and query its pipeline
 * read, the key that authenticated it, the client as TRUST_PROXY judges it, and the step limits
 * its route declares. One object per request with its methods on the prototype: the pipeline
 * makes no closure per request. It is also the request's ReportSender (the credential presented,
 * the client and its limit key), for a route whose script judges those (ScriptAdmission).
 */
export class RouteContext<I extends Partial<RouteInput> = RouteInput> implements ReportSender {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly route: RouteRuntime;
  body: Field<I, 'body', undefined> = undefined as Field<I, 'body', undefined>;
  params: Field<I, 'params', Record<never, never>> = NO_VALUES;
  query: Field<I, 'query', Record<never, never>> = NO_VALUES;
  /** The live key of a route with `auth: 'serverKey'`, set by its pipeline before the body. */
  key: AuthenticatedKey | undefined = undefined;
  /** The client IP, read once. */
  #ip: string | undefined = undefined;
  /** The names `limit` takes, as a type only: a handler counts no limit its route leaves out. */
  declare readonly stepLimits: (name: Field<I, 'steps', never>) => void;

  constructor(req: IncomingMessage, res: ServerResponse, route: RouteRuntime) {
    this.req = req;
    this.res = res;
    this.route = route;
  }

  /** The request IP as the trusted proxy chain tells it, written canonically (client-ip.ts). */
  get clientIp(): string {
    return (this.#ip ??= clientIp(this.req, this.route.trustProxy));
  }

  /** The key of every per-IP limit of this client (an IPv6 client's /56). */
  get ipKey(): string {
    return ipLimitKey(this.clientIp);
  }

  /** The bearer credential presented, if any (`Authorization: Bearer …`). */
  get credential(): string | null {
    return bearerToken(this.req);
  }

  get multiplier(): number {
    return this.route.multiplier;
  }

  /** The sender of a report: this request (its credential, client and limit key). */
  get sender(): ReportSender {
    return this;
  }

  /**
   * Counts one step against one of the route's step limits (a game-server check, a stats cache
   * miss); 429 with Retry-After past it. A limit the route does not declare is a bug.
   */
  async limit(name: Field<I, 'steps', never>): Promise<void> {
    const limit = name as RateLimitName;
    if (!this.route.steps.has(limit))
      throw new Error(`${this.route.id} counts ${limit}, not among its limits`);
    await applyLimit(this.route.store, limit, this.ipKey, this.route.multiplier);
  }

  /**
   * The answer of a script that judged the route's limits and key (ScriptAdmission): returned
   * when admitted, else 429 past a limit or 401 for the key.
   */
  async admitted<R extends { kind: string }>(result: R | ReportRefusal): Promise<Exclude<R, ReportRefusal>> {
    if (result.kind === 'limited')
      throw await rateLimited(this.route.store, (result as { resetAt: number }).resetAt);
    if (result.kind === 'invalid') throw invalidCredential();
    return result as Exclude<R, ReportRefusal>;
  }

  /** Answers with `body` as JSON. */
  send(status: number, body: unknown, headers?: OutgoingHttpHeaders): void {
    sendJson(this.res, status, body, headers);
  }
}

const NO_VALUES = Object.freeze({}) as never;
