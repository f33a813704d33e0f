import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config';
import { refuseOnSocket } from './errors';
import { correlationIdOf } from './request-context';

/*
 * Every request answered, or its connection closed, however its body arrives (issue 38 point 7).
 *
 * A request may be answered before its body has arrived: refused by its content type, its size or its
 * headers. Node then keeps the connection and goes on reading the rest of the body its Content-Length
 * (or its chunks) announced. When that rest never comes (a client that counts a body's length in one
 * charset and sends it in another, or one that stopped), the next request the client sends on the
 * connection is read as that body, and never answered. So a request answered before its body is all in
 * is answered `Connection: close`: the client sends its next request on a new connection. (That includes
 * a refusal made before Node has parsed a body that came with the head: the answer was first, and a
 * reconnection after a refused request is the whole cost. Fastify closes after its own body errors too.)
 *
 * A body that stops arriving is not waited for forever either. Fastify turns off Node's bound on the time
 * to receive a whole request (requestTimeout), and rightly for this server: an integration bulk load is
 * one request of any length, streamed for as long as it takes. What is bounded instead is a silence: no
 * byte either way for BODY_STALL_MS while the body is still expected and the server has read all it was
 * sent. That request is answered 408 in its path's envelope and its connection closed. A request whose
 * body is all in is waited for however slow its handler (the database and every outbound call have their
 * own timeouts); one that sends its body slowly but steadily is served.
 */

/**
 * How long a request's body may stop arriving (nothing received or sent on its connection) before the
 * request is refused: the client inactivity limit of the documented load balancer set-up (HAProxy's
 * `timeout client 30s`, docs/operations.md), so a client behind it meets the same limit either way.
 * A connection silent as long before its request's head is all in is closed (Node's way with a socket
 * timeout), and a head has Node's own limit besides (headersTimeout, 60 s from its first byte).
 */
export const BODY_STALL_MS = 30_000;

/** Whether some of the request's body has still to arrive (by its Content-Length or chunked framing). */
function bodyStillExpected(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

type WriteHeadArguments =
  | [statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]]
  | [statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]];

/**
 * Node's HTTP server options for the portal's server (Fastify's `http` option; the socket inactivity
 * limit is Fastify's `connectionTimeout`, set to BODY_STALL_MS beside it in app.ts).
 */
export function httpServerOptions(config: Config) {
  /**
   * The server's responses. Every answer, Fastify's and the OpenID provider's alike (that one writes the
   * raw response itself), passes through writeHead, where Node decides whether the connection is kept.
   */
  class PortalResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    // All of Node's arguments handed on (it passes options the type does not declare).
    constructor(...args: [req: Request]) {
      super(...args);
      // Listening at all keeps Node from destroying the socket on a silence: onSilence decides.
      this.on('timeout', onSilence);
    }

    override writeHead(...args: WriteHeadArguments): this {
      // Answered before its body is all in: the connection cannot be trusted to carry another request.
      if (bodyStillExpected(this.req)) this.shouldKeepAlive = false;
      return super.writeHead(...(args as Parameters<ServerResponse<Request>['writeHead']>));
    }
  }

  /**
   * The request's connection has been silent for BODY_STALL_MS. A body still expected that the server is
   * not behind on reading (nothing waiting unread) has stopped arriving: refused 408, connection closed
   * (only closed when an answer has already begun, so that nothing is written into it). Anything else is
   * the server's own time (a slow handler, or a bulk load applying what it has read): left alone.
   */
  function onSilence(this: PortalResponse, socket: Socket) {
    const req = this.req;
    if (!bodyStillExpected(req) || req.readableLength > 0) return;
    if (this.headersSent) {
      socket.destroy();
      return;
    }
    refuseOnSocket(
      config,
      socket,
      408,
      'The request took too long to arrive.',
      req.url ?? '/',
      correlationIdOf(req),
    );
  }

  return { ServerResponse: PortalResponse };
}
