import type { SelfClaimRefusal } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import { probeErrorResponse } from '../probe/index.ts';
import type { SelfClaimBody } from '../schemas.ts';
import type { Handler } from './route.ts';

type SelfClaimInput = { body: SelfClaimBody; steps: 'selfClaimProbePerIp' };

function refusalError(refusal: SelfClaimRefusal): HttpError {
  switch (refusal.refusal) {
    case 'interval':
      return new HttpError(
        429,
        'rate limited',
        {},
        {
          'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000))),
        },
      );
    case 'address in use':
      return new HttpError(409, 'address in use');
    case 'too many credentials':
      // A slot frees when an unused credential lapses; with none unused, only a re-claim of one
      // of the addresses frees one, so a retry within the hour is pointless.
      return new HttpError(
        429,
        'too many credentials',
        { live: refusal.live, max: refusal.max },
        { 'Retry-After': String(refusal.retryAfterMs ? Math.ceil(refusal.retryAfterMs / 1000) : 3600) },
      );
  }
}

/**
 * POST /v1/servers/claim (4.1). Flow: body → stored rules (interval, address, live count) → the
 * probe's own limit → the probe → the atomic issue, which checks the rules again. Nothing but a
 * successful issue spends the IP's 5-minute interval.
 */
export function selfClaim({ store, probe }: ApiDeps): Handler<SelfClaimInput> {
  return async (ctx) => {
    const { body } = ctx;
    // The interval, the live count and the probe limit are per IP like every other limit (an IPv6
    // /56), so one network cannot mint keys address by address; the probe goes to the exact one.
    // The credential presented is the one of the registration to replace (spec 5 rule 4).
    const claim = {
      ip: ctx.clientIp,
      ipKey: ctx.ipKey,
      port: body.port,
      presentedCredential: ctx.credential,
    };

    const refusal = await store.checkSelfClaim(claim);
    if (refusal) throw refusalError(refusal);

    await ctx.limit('selfClaimProbePerIp');
    const probed = await probe(claim.ip, claim.port);
    if (!probed.ok) {
      const { status, error } = probeErrorResponse(probed);
      throw new HttpError(status, error);
    }

    const issued = await store.issueSelfClaim(claim, {
      clientName: body.clientName,
      gameVersion: body.gameVersion,
      userAgent: ctx.req.headers['user-agent'],
    });
    if ('refusal' in issued) throw refusalError(issued);
    // The credential is shown this once: no cache may keep it.
    ctx.send(200, { status: 'verified', ...issued }, { 'Cache-Control': 'no-store' });
  };
}
