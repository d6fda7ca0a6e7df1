// Share links: a rider makes, lists and revokes their links (/api/shares); whoever holds one reads it
// without signing in (/api/shared/:token, its preview image, the /v/:token page), limited per address.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, writeErrors } from '#core/contracts/common.contract.ts';
import {
  createShareBodySchema,
  createShareResponseSchema,
  shareIdParamsSchema,
  sharedLapQuerySchema,
  sharedLapSchema,
  sharedParamsSchema,
  sharedViewSchema,
  sharesResponseSchema,
  type SharedView,
} from '#core/contracts/shares.contract.ts';
import { AppError } from '#core/errors.ts';
import { negotiatePreferences, parseAcceptLanguage } from '#core/preferences.ts';
import { escapeHtml, jsonInHtml } from '#server/lib/html.ts';
import { requestLanguage } from '#server/lib/i18n.ts';
import { perUserWrites } from '#server/plugins/rate-limit-store.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import { firstScreenPage, type BuiltPages } from '#server/lib/web-page.ts';
import { viewerOf } from '../sessions/device-check';
import type { SharesService } from './shares.service';
import { sharedPageHtml } from './shared-page.html';

/** Per address: enough for a group chat opening a link at once, not for walking the link space. */
const PUBLIC_RATE = { max: 60, timeWindow: '1 minute' };
/** Links one rider may make a minute (each times a session's laps). */
export const SHARES_PER_MINUTE = 30;
const doc = routeSchemas('shares', writeErrors);

/**
 * What a link holder gets: no cookie (not even a renewed sign-in of whoever opens it), nothing
 * cached on the way (the link is the secret), no referrer carrying it elsewhere, no indexing.
 */
function linkHolderHeaders(reply: FastifyReply): void {
  reply.removeHeader('set-cookie');
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex, nofollow');
}

export async function sharesRoutes(
  app: FastifyInstance,
  opts: { shares: SharesService; pages: BuiltPages; publicUrl: string },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { shares } = opts;

  r.post(
    '/api/shares',
    {
      // Heavy: making a link times the session's laps on its track (to check the lap is there).
      config: { access: 'rider', heavyRead: true, rateLimit: perUserWrites(SHARES_PER_MINUTE) },
      schema: {
        tags: ['shares'],
        summary:
          'Makes a read-only link to one of the caller’s sessions, or one lap of it (optionally expiring); the link is in this answer only',
        body: createShareBodySchema,
        response: { 201: createShareResponseSchema, ...writeErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await shares.create(viewerOf(req), req.body)),
  );

  r.get(
    '/api/shares',
    { config: { access: 'rider' }, schema: doc('The caller’s links, newest first', sharesResponseSchema) },
    async (req) => shares.list(viewerOf(req)),
  );

  r.delete(
    '/api/shares/:id',
    {
      config: { access: 'rider' },
      schema: doc('Revokes a link of the caller’s: it opens nothing from now on, on every instance', okSchema, {
        params: shareIdParamsSchema,
      }),
    },
    async (req) => shares.revoke(viewerOf(req), req.params.id),
  );

  // What the link holder reads: public, rate limited per address.
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_req, reply) => linkHolderHeaders(reply));
    const s = scope.withTypeProvider<ZodTypeProvider>();

    s.get(
      '/api/shared/:token',
      {
        config: { access: 'public', rateLimit: PUBLIC_RATE },
        schema: {
          tags: ['shares'],
          summary:
            'A shared session or lap: its laps, best and ideal lap, consistency and corners (no sign-in; a revoked, expired or altered link is 404)',
          params: sharedParamsSchema,
          response: { 200: sharedViewSchema, ...errorAnswers(400, 404, 429) },
        },
      },
      async (req) => shares.view(req.params.token),
    );

    s.get(
      '/api/shared/:token/lap',
      {
        config: { access: 'public', rateLimit: PUBLIC_RATE },
        schema: {
          tags: ['shares'],
          summary: 'One lap of a shared link against position along the track (speed, lean) and its path',
          params: sharedParamsSchema,
          querystring: sharedLapQuerySchema,
          response: { 200: sharedLapSchema, ...errorAnswers(400, 404, 429) },
        },
      },
      async (req) => shares.lap(req.params.token, req.query.lap),
    );

    s.get(
      '/api/shared/:token/preview.png',
      {
        config: { access: 'public', rateLimit: PUBLIC_RATE },
        schema: {
          tags: ['shares'],
          summary: 'The link preview image (Open Graph): the track and the lap time',
          params: sharedParamsSchema,
        },
      },
      async (req, reply) => {
        const preview = await shares.preview(req.params.token, requestLanguage(req));
        return reply.type('image/png').send(await preview.image());
      },
    );

    // The page a link opens: its first screen written here (shared-page.html.ts, from the same view
    // as /api/shared/:token), the preview a messaging app reads in its head, the app on demand.
    s.get(
      '/v/:token',
      { config: { access: 'public', rateLimit: PUBLIC_RATE }, schema: { hide: true } },
      async (req, reply) => {
        const token = (req.params as { token: string }).token;
        const language = requestLanguage(req);
        let head = '<meta name="robots" content="noindex, nofollow">';
        let view: SharedView | null = null;
        if (sharedParamsSchema.safeParse({ token }).success) {
          try {
            const [v, p] = await Promise.all([shares.view(token), shares.preview(token, language)]);
            view = v;
            const image = `${opts.publicUrl}/api/shared/${token}/preview.png`;
            head += [
              `<meta property="og:title" content="${escapeHtml(p.title)}">`,
              `<meta property="og:description" content="${escapeHtml(p.description)}">`,
              `<meta property="og:image" content="${escapeHtml(image)}">`,
              '<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">',
              '<meta property="og:type" content="website">',
              '<meta name="twitter:card" content="summary_large_image">',
              // The app starts from the view on screen instead of asking for it again (history-api.ts).
              `<script type="application/json" id="shared-view" data-token="${escapeHtml(token)}">${jsonInHtml(v)}</script>`,
            ].join('');
          } catch (err) {
            if (!(err instanceof AppError) || err.code !== 'storage/object-not-found') throw err;
          }
        }
        const signedIn = Boolean(req.identity && !req.identity.disabled);
        return reply
          .code(view ? 200 : 404)
          .type('text/html; charset=utf-8')
          .header('vary', 'accept-language')
          .send(
            firstScreenPage(opts.pages, {
              language,
              page: 'shared',
              head,
              body: sharedPageHtml(
                language,
                view,
                signedIn,
                negotiatePreferences(parseAcceptLanguage(req.headers['accept-language'])).units,
              ),
              // A lap's link shows its charts; a signed-in visitor gets their own laps to compare.
              startApp: Boolean(view && (view.lap || signedIn)),
            }),
          );
      },
    );
  });
}
