package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single MCP endpoint of the Streamable HTTP transport: POST carries one JSON-RPC message, GET opens the
 * notification stream, DELETE ends the session. Shared by all channels; per-request state lives in locals.
 */
@ChannelHandler.Sharable
final class McpHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  static final String PATH = "/mcp";

  /** A header a client may send on {@code initialize} to name itself in the call log (e.g. a worker's id). */
  static final String CLIENT_TAG = "X-Client-Tag";

  /** The session id 2026 requests are journaled under (2026 has no sessions), suffixed with the client tag. */
  static final String SESSION_2026 = "2026";

  private static final Logger LOG = LoggerFactory.getLogger(McpHttpHandler.class);
  private static final Pattern LOOPBACK_ORIGIN =
      Pattern.compile("https?://(localhost|127\\.0\\.0\\.1|\\[::1])(:\\d+)?");

  private final McpDispatcher dispatcher;
  private final HttpSessions sessions;
  private final ReferenceServerOptions options;
  private final ObjectMapper mapper;
  private final CallJournal journal;

  McpHttpHandler(McpDispatcher dispatcher, HttpSessions sessions, ReferenceServerOptions options,
      ObjectMapper mapper, CallJournal journal) {
    super(true);
    this.dispatcher = dispatcher;
    this.sessions = sessions;
    this.options = options;
    this.mapper = mapper;
    this.journal = journal;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    HttpReply reply = new HttpReply(ctx.channel(), mapper, HttpUtil.isKeepAlive(request));
    String path = request.uri().split("\\?", 2)[0];
    if (!PATH.equals(path)) {
      reply.plain(HttpResponseStatus.NOT_FOUND, "Not Found: the MCP endpoint is " + PATH);
      return;
    }
    String origin = request.headers().get(HttpHeaderNames.ORIGIN);
    if (origin != null && !LOOPBACK_ORIGIN.matcher(origin).matches() && !options.allowedOrigins().contains(origin)) {
      reply.rpcError(HttpResponseStatus.FORBIDDEN, -32000, "Forbidden: origin " + origin + " is not allowed");
      return;
    }
    HttpMethod method = request.method();
    if (HttpMethod.POST.equals(method)) {
      post(reply, request);
    } else if (!options.generation().serves2025()) {
      reply.onlyPostAllowed();
    } else if (HttpMethod.GET.equals(method)) {
      get(reply, request);
    } else if (HttpMethod.DELETE.equals(method)) {
      delete(reply, request);
    } else {
      reply.methodNotAllowed();
    }
  }

  private void post(HttpReply reply, FullHttpRequest request) {
    String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
    if (!accept.contains("application/json") || !accept.contains("text/event-stream")) {
      reply.rpcError(HttpResponseStatus.NOT_ACCEPTABLE, -32000,
          "Not Acceptable: Client must accept both application/json and text/event-stream");
      return;
    }
    String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
    if (!contentType.startsWith("application/json")) {
      reply.rpcError(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, -32000,
          "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    JsonNode message;
    try {
      message = mapper.readTree(new ByteBufInputStream(request.content()));
    } catch (IOException e) {
      reply.rpcError(HttpResponseStatus.BAD_REQUEST, JsonRpcException.PARSE_ERROR, "Parse error: " + e.getMessage());
      return;
    }
    if (message == null || !message.isObject()) {
      reply.rpcError(HttpResponseStatus.BAD_REQUEST, JsonRpcException.INVALID_REQUEST,
          "Invalid Request: the body must be one JSON-RPC message");
      return;
    }
    if (dispatcher.is2026(message) || (options.generation().serves2026()
        && Envelope.VERSION.equals(request.headers().get(HttpTransportHeaders.PROTOCOL_VERSION)))) {
      post2026(reply, request, message);
      return;
    }
    boolean initialize = McpDispatcher.isRequest(message) && "initialize".equals(message.path("method").asText());
    ClientSession session = initialize ? sessions.open() : existingSession(reply, request);
    if (session == null) {
      return;
    }
    if (initialize) {
      journal.session(session.id(), request.headers().get(CLIENT_TAG));
    }
    if (!McpDispatcher.isRequest(message)) {
      dispatcher.handle(session, message);
      reply.accepted();
      return;
    }
    String sessionHeader = initialize ? session.id() : null;
    String client = request.headers().get(CLIENT_TAG);
    Consumer<ObjectNode> route;
    if (options.jsonResponses()) {
      route = answer -> reply.json(answer, sessionHeader);
    } else {
      SseStream stream = reply.openSse(sessionHeader, options.sseRetryMs(), options.sseKeepAliveMs());
      route = stream::finish;
    }
    if (options.strictIds()) {
      route = strictRoute(session, message.get("id").toString(), route);
    }
    Consumer<ObjectNode> answered = route;
    journal.onConnection(reply::onClose, client, () -> dispatcher.handle(session, message))
        .thenAccept(answer -> answered.accept(answer.message()));
  }

  /**
   * Strict ids: the answer goes wherever the request's id routes when it is ready (see {@link RequestRoutes}), and a
   * reused id is logged and journaled.
   */
  private Consumer<ObjectNode> strictRoute(ClientSession session, String id, Consumer<ObjectNode> route) {
    RequestRoutes.Use use = session.routes().register(id, route);
    if (use != RequestRoutes.Use.FIRST) {
      boolean inFlight = use == RequestRoutes.Use.REUSED_IN_FLIGHT;
      LOG.warn("session {}: request id {} reused{}", session.id(), id,
          inFlight ? " while the earlier request is in flight: its answer goes to the new request" : "");
      journal.reusedId(session.id(), id, inFlight);
    }
    return answer -> session.routes().answer(id, answer);
  }

  /**
   * A 2026-07-28 POST (the whole endpoint in 2026 mode; in dual mode a request with the envelope, a
   * {@code server/discover}, or a {@code MCP-Protocol-Version: 2026-07-28} header): no session, headers checked
   * against the body, and always an {@code application/json} answer (the SDK's default) whose HTTP status is the
   * error's (400, 404) or 200. Each request gets a throwaway session named by its {@code X-Client-Tag}, if any, for
   * the call log.
   */
  private void post2026(HttpReply reply, FullHttpRequest request, JsonNode message) {
    if (!McpDispatcher.isRequest(message)) {
      dispatcher.handle(new ClientSession(SESSION_2026, null), message);
      reply.accepted();
      return;
    }
    String tag = request.headers().get(CLIENT_TAG);
    ClientSession session = new ClientSession(tag == null ? SESSION_2026 : SESSION_2026 + ":" + tag, null);
    HttpHeaders headers = request.headers().copy();
    journal.onConnection(reply::onClose, () -> dispatcher.handle2026(session, message,
            (method, params, envelope) -> Headers2026.verify(headers, method, params, envelope)))
        .thenAccept(answer -> reply.json(HttpResponseStatus.valueOf(answer.httpStatus()), answer.message(), null));
  }

  private void get(HttpReply reply, FullHttpRequest request) {
    String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
    if (!accept.contains("text/event-stream")) {
      reply.rpcError(HttpResponseStatus.NOT_ACCEPTABLE, -32000, "Not Acceptable: Client must accept text/event-stream");
      return;
    }
    ClientSession session = existingSession(reply, request);
    if (session == null) {
      return;
    }
    if (!options.getStream()) {
      reply.methodNotAllowed();
      return;
    }
    // Attached before its head is written: notifications sent meanwhile from other threads are queued on the event
    // loop behind start(), which runs now, on the loop.
    SseStream stream = reply.unstartedSse();
    if (!session.attach(stream)) {
      reply.rpcError(HttpResponseStatus.CONFLICT, -32000, "Conflict: Only one SSE stream is allowed per session");
      return;
    }
    reply.onClose(() -> session.detach(stream));
    stream.start(null, options.sseRetryMs(), options.sseKeepAliveMs());
  }

  private void delete(HttpReply reply, FullHttpRequest request) {
    ClientSession session = existingSession(reply, request);
    if (session != null) {
      sessions.close(session.id());
      LOG.info("session {} deleted", session.id());
      reply.plain(HttpResponseStatus.OK, "");
    }
  }

  /** The request's live session, or null after answering 400 (no id, bad version) or 404 (unknown or ended id). */
  private ClientSession existingSession(HttpReply reply, FullHttpRequest request) {
    String id = request.headers().get(HttpTransportHeaders.SESSION_ID);
    if (id == null) {
      reply.rpcError(HttpResponseStatus.BAD_REQUEST, -32000, "Bad Request: Mcp-Session-Id header is required");
      return null;
    }
    ClientSession session = sessions.find(id).orElse(null);
    if (session == null) {
      reply.rpcError(HttpResponseStatus.NOT_FOUND, -32001, "Session not found");
      return null;
    }
    String version = request.headers().get(HttpTransportHeaders.PROTOCOL_VERSION);
    if (version != null && !McpDispatcher.SUPPORTED_VERSIONS.contains(version)) {
      reply.rpcError(HttpResponseStatus.BAD_REQUEST, -32000, "Bad Request: Unsupported protocol version: " + version
          + " (supported versions: " + String.join(", ", McpDispatcher.SUPPORTED_VERSIONS) + ")");
      return null;
    }
    return session;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("closing channel after {}", cause.toString());
    ctx.close();
  }
}
