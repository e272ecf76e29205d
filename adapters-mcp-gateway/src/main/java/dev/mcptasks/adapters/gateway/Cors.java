package dev.mcptasks.adapters.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;

/**
 * CORS for the origins the gateway admits ({@code gateway.allowedOrigins}, and loopback origins on a loopback bind):
 * a preflight ({@code OPTIONS} with {@code Access-Control-Request-Method}) is answered before authentication (a
 * browser sends no credentials with it), and every answer to a request from an admitted origin names that origin,
 * so a browser client can read it and its session id. An origin that is not admitted never gets here: the rebinding
 * guard refuses it first.
 */
@ChannelHandler.Sharable
final class Cors extends ChannelDuplexHandler {
    /** The admitted origin of the request being answered on this channel (null: not a cross-origin request). */
    static final AttributeKey<String> ORIGIN = AttributeKey.valueOf("dev.mcptasks.adapters.gateway.origin");
    static final String ALLOWED_METHODS = "GET, POST, DELETE";
    static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Last-Event-ID, Mcp-Session-Id,"
            + " MCP-Protocol-Version, Mcp-Method, Mcp-Name";
    static final String EXPOSED_HEADERS = "Mcp-Session-Id, WWW-Authenticate";
    private static final String MAX_AGE_SECONDS = "600";

    /** Whether {@code request} is a CORS preflight. */
    static boolean isPreflight(HttpRequest request) {
        return "OPTIONS".equals(request.method().name()) && request.headers().contains(HttpHeaderNames.ORIGIN)
                && request.headers().contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
    }

    /** Answers a preflight from an admitted origin: 204 with what a request from it may use. */
    static void answerPreflight(Channel channel, HttpRequest request, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT,
                Unpooled.EMPTY_BUFFER);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, request.headers().get(HttpHeaderNames.ORIGIN));
        headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
        headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
        headers.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
        headers.set(HttpHeaderNames.VARY, "Origin");
        headers.set(HttpHeaderNames.CONTENT_LENGTH, 0);
        if (!keepAlive) {
            headers.set(HttpHeaderNames.CONNECTION, "close");
        }
        var written = channel.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
        if (message instanceof HttpResponse response) {
            String origin = ctx.channel().attr(ORIGIN).get();
            HttpHeaders headers = response.headers();
            if (origin != null && !headers.contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN)) {
                headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                headers.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
                headers.add(HttpHeaderNames.VARY, "Origin");
            }
        }
        super.write(ctx, message, promise);
    }
}
