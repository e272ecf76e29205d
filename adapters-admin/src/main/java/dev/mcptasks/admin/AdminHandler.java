package dev.mcptasks.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Authenticates a request, finds its route by exact path and answers it from the route pool. */
@ChannelHandler.Sharable
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

    private final Map<String, AdminRoute> routes;
    /** Paths served without the token: the liveness and readiness probes. */
    static final Set<String> OPEN = Set.of("/healthz", "/readyz");

    private final byte[] token;
    private final ExecutorService work;

    AdminHandler(Map<String, AdminRoute> routes, String token, ExecutorService work) {
        this.routes = routes;
        this.token = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        this.work = work;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        // the probes answer without the token: an orchestrator's liveness and readiness checks carry no secret, and
        // they say only up or down (their reasons are masked like every other text)
        if (token != null && !OPEN.contains(uri.path())
                && !authorized(request.headers().get(HttpHeaderNames.AUTHORIZATION))) {
            reply(ctx, AdminReply.text(401, "admin token required\n"), keepAlive);
            return;
        }
        AdminRoute route = routes.get(uri.path());
        if (route == null) {
            reply(ctx, AdminReply.text(404, "no such admin route: " + uri.path() + "\n"), keepAlive);
            return;
        }
        AdminRequest admitted = new AdminRequest(request.method().name(), uri.path(), uri.parameters());
        try {
            work.execute(() -> reply(ctx, answer(route, admitted), keepAlive));
        } catch (RejectedExecutionException stopping) {
            reply(ctx, AdminReply.text(503, "the admin listener is stopping\n"), false);
        }
    }

    private static AdminReply answer(AdminRoute route, AdminRequest request) {
        try {
            return route.handle(request);
        } catch (RuntimeException e) {
            LOG.warn("admin route {} failed: {}", request.path(), e.toString());
            return AdminReply.text(500, "admin route failed: " + e.getClass().getSimpleName() + "\n");
        }
    }

    private boolean authorized(String header) {
        // constant time: the token must not leak through the comparison's duration
        return header != null && MessageDigest.isEqual(token, header.getBytes(StandardCharsets.UTF_8));
    }

    private static void reply(ChannelHandlerContext ctx, AdminReply reply, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        if (reply.status() == 401) {
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"mcp-tasks-admin\"");
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
