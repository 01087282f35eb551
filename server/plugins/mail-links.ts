import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import { unsubscribeAnswer } from '../../shared/schemas/notification-settings';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { PUBLIC } from '../rest/openapi';
import { calendarFeed } from '../services/calendar';
import type { ServiceContext } from '../services/context';
import { unsubscribe } from '../services/notification-settings';

/**
 * The addresses mails and calendar apps open without signing in:
 *
 * - POST /api/unsubscribe/<token>: RFC 8058 one-click unsubscribe. Mail providers POST
 *   `List-Unsubscribe=One-Click` as a form, so any body type is taken here (and ignored: the
 *   token says everything). GET redirects to the page /unsubscribe/<token>, which asks the API
 *   itself: a link scanner that only GETs changes nothing.
 * - GET /calendar/<token>.ics: the calendar feed, for Google Calendar or Outlook to poll.
 *
 * Not procedures' REST paths: neither takes JSON nor answers it a procedure's way (a form body, a
 * text/calendar answer). Public, so no API key scope applies. Registered inside the REST plugin, so the OpenAPI document lists them;
 * both are in the authorization matrix and the fuzz suite.
 */

const TOKEN = /^[A-Za-z0-9_-]{1,200}(\.[A-Za-z0-9_-]{1,100})?$/;

export const mailLinkRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  // Encapsulated in this plugin: every other route keeps refusing bodies it does not parse.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) =>
    done(null, null),
  );

  const contextOf = (requestId: string, ip: string): ServiceContext => ({
    deps,
    db: deps.db,
    ip,
    requestId,
    log: app.log,
  });

  const token = z.object({ token: z.string() });
  app.post(
    '/api/unsubscribe/:token',
    {
      schema: {
        summary: 'One-click unsubscribe (RFC 8058): the event of the signed token goes back to in-app',
        description:
          'The List-Unsubscribe address of a notification mail. No session; any body and content type ' +
          '(mail providers send `List-Unsubscribe=One-Click` as a form). Answers `{message, event}`; a ' +
          'token that was not issued is 400 `This unsubscribe link is not valid`.',
        tags: ['settings'],
        params: token,
        operationId: 'mailUnsubscribe',
        security: PUBLIC,
        'x-errors': [400, 429],
        'x-examples': {
          response: {
            message: 'You will no longer get e-mails for "Comment". It stays in the portal.',
            event: 'comment',
          },
        },
        response: { 200: unsubscribeAnswer },
      },
    },
    async (req) => {
      const { token } = req.params as { token: string };
      return unsubscribe(contextOf(req.id, req.ip), { token: TOKEN.test(token) ? token : '' });
    },
  );

  app.get(
    '/api/unsubscribe/:token',
    {
      schema: {
        summary: 'Opens the unsubscribe page of a mail link (303 to /unsubscribe/{token}); changes nothing',
        description:
          'A mail link opened in a browser: the page asks before unsubscribing, so a mail scanner that ' +
          'follows links changes nothing. 404 for a token that cannot be one.',
        tags: ['settings'],
        params: token,
        operationId: 'mailUnsubscribePage',
        security: PUBLIC,
        'x-errors': [404, 429],
        response: {
          303: z.null().describe('A redirect (Location) to the page /unsubscribe/{token}'),
        },
      },
    },
    async (req, reply) => {
      const { token } = req.params as { token: string };
      if (!TOKEN.test(token)) throw new AppError('NOT_FOUND', apiMessages.notFound);
      return reply.redirect(`/unsubscribe/${token}`, 303);
    },
  );

  app.get(
    '/calendar/:file',
    {
      schema: {
        summary:
          'The iCalendar feed (RFC 5545) of POST /api/calendar/feed: /calendar/{token}.ics, no session',
        description: 'text/calendar of all-day events with stable UIDs; 404 for a token nobody holds.',
        tags: ['key dates'],
        params: z.object({ file: z.string() }),
        operationId: 'calendarFeedFile',
        security: PUBLIC,
        'x-errors': [404, 429],
        response: {
          200: {
            description: 'The feed: an RFC 5545 calendar of all-day events',
            content: { 'text/calendar': { schema: z.string() } },
          },
        },
      },
    },
    async (req, reply) => {
      const { file } = req.params as { file: string };
      const token = file.endsWith('.ics') ? file.slice(0, -4) : '';
      const body = TOKEN.test(token) ? await calendarFeed(contextOf(req.id, req.ip), { token }) : null;
      if (body === null) throw new AppError('NOT_FOUND', apiMessages.notFound);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="key-dates.ics"')
        .send(body);
    },
  );
};
