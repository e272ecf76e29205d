package dev.mcptasks.adapters.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.Map;
import java.util.Optional;

/**
 * Judges each request by its head, before any of its body is read or buffered: the endpoint path, DNS rebinding
 * (Host, Origin), the bearer token, the HTTP method and the declared body size. A refused request is answered at once
 * with a JSON-RPC error body and its body is discarded as it arrives, never buffered; the connection stays usable
 * unless the body is over the size limit (413 closes it, so the rest is never read). An admitted request goes on with
 * its principal in {@link #PRINCIPAL}.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {
    static final String PATH = "/mcp";

    /**
     * The principal of the request being aggregated on this channel. HTTP/1.1 requests on one connection are read one
     * after the other on its event loop, so the endpoint reads the value set for its own request.
     */
    static final AttributeKey<String> PRINCIPAL = AttributeKey.valueOf("dev.mcptasks.adapters.gateway.principal");

    private final RebindingGuard guard;
    private final BearerTokens tokens;
    private final int maxRequestBytes;
    private final HttpReplies replies;
    private boolean discarding;
    private long discarded;

    RequestGate(RebindingGuard guard, BearerTokens tokens, int maxRequestBytes, HttpReplies replies) {
        this.guard = guard;
        this.tokens = tokens;
        this.maxRequestBytes = maxRequestBytes;
        this.replies = replies;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request) {
            discarding = false;
            Optional<String> principal = admit(ctx, request);
            if (principal.isEmpty()) {
                discarding = !(msg instanceof LastHttpContent);
                discarded = 0;
                ReferenceCountUtil.release(msg);
                return;
            }
            ctx.channel().attr(PRINCIPAL).set(principal.get());
            ctx.fireChannelRead(msg);
        } else if (discarding && msg instanceof HttpContent content) {
            discarding = !(msg instanceof LastHttpContent);
            discarded += content.content().readableBytes();
            ReferenceCountUtil.release(msg);
            if (discarded > maxRequestBytes) {
                // a refused request's body that grows past the limit is not worth reading to its end
                ctx.close();
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    /** The caller's principal, or empty after answering the refusal. */
    private Optional<String> admit(ChannelHandlerContext ctx, HttpRequest request) {
        var channel = ctx.channel();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            replies.rpcError(channel, false, HttpResponseStatus.BAD_REQUEST, JsonRpc.TRANSPORT_ERROR,
                    "Bad Request: malformed HTTP request", Map.of());
            return Optional.empty();
        }
        String path = request.uri().split("\\?", 2)[0];
        if (!PATH.equals(path)) {
            replies.rpcError(channel, keepAlive, HttpResponseStatus.NOT_FOUND, JsonRpc.TRANSPORT_ERROR,
                    "Not Found: the MCP endpoint is " + PATH, Map.of());
            return Optional.empty();
        }
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        Optional<String> refusal = guard.refusal(request.headers().get(HttpHeaderNames.HOST), origin);
        if (refusal.isPresent()) {
            channel.attr(Cors.ORIGIN).set(null);
            replies.rpcError(channel, keepAlive, HttpResponseStatus.FORBIDDEN, JsonRpc.TRANSPORT_ERROR, refusal.get(),
                    Map.of());
            return Optional.empty();
        }
        // an admitted origin: its answers carry the CORS headers, and its preflight needs no credentials
        channel.attr(Cors.ORIGIN).set(origin);
        if (Cors.isPreflight(request)) {
            Cors.answerPreflight(channel, request, keepAlive);
            return Optional.empty();
        }
        BearerTokens.Verdict verdict = tokens.judge(request.headers().get(HttpHeaderNames.AUTHORIZATION));
        if (!(verdict instanceof BearerTokens.Verdict.Admitted admitted)) {
            boolean missing = verdict instanceof BearerTokens.Verdict.Missing;
            String challenge = missing ? HttpReplies.REALM : HttpReplies.REALM + ", error=\"invalid_token\"";
            replies.rpcError(channel, keepAlive, HttpResponseStatus.UNAUTHORIZED, JsonRpc.TRANSPORT_ERROR,
                    missing ? "Unauthorized: a bearer token is required"
                            : "Unauthorized: the bearer token is not known",
                    Map.of(HttpHeaderNames.WWW_AUTHENTICATE.toString(), challenge));
            return Optional.empty();
        }
        HttpMethod method = request.method();
        if (!HttpMethod.POST.equals(method) && !HttpMethod.GET.equals(method) && !HttpMethod.DELETE.equals(method)) {
            replies.rpcError(channel, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, JsonRpc.TRANSPORT_ERROR,
                    "Method Not Allowed: " + method, Map.of(HttpHeaderNames.ALLOW.toString(), "GET, POST, DELETE"));
            return Optional.empty();
        }
        if (HttpUtil.getContentLength(request, -1L) > maxRequestBytes) {
            replies.rpcError(channel, false, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, JsonRpc.TRANSPORT_ERROR,
                    tooLarge(maxRequestBytes), Map.of());
            return Optional.empty();
        }
        return Optional.of(admitted.principal());
    }

    static String tooLarge(int maxRequestBytes) {
        return "Payload Too Large: the request body exceeds " + maxRequestBytes + " bytes";
    }
}
