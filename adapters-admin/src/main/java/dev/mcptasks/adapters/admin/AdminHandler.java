package dev.mcptasks.adapters.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates a request ({@link AdminAuth}), checks a POST's role and CSRF token, finds its route by exact path
 * and answers it from the route pool.
 */
@ChannelHandler.Sharable
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

    /** Paths served without the token: the liveness and readiness probes. */
    static final Set<String> OPEN = Set.of("/healthz", "/readyz");
    /** The form's field that carries the CSRF token. */
    static final String CSRF_FIELD = "csrf";

    private final Map<String, AdminRoute> routes;
    private final AdminAuth auth;
    private final ExecutorService work;

    AdminHandler(Map<String, AdminRoute> routes, AdminAuth auth, ExecutorService work) {
        this.routes = routes;
        this.auth = auth;
        this.work = work;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        Map<String, List<String>> form = form(request);
        String cookie = request.headers().get(HttpHeaderNames.COOKIE);
        boolean post = request.method().equals(HttpMethod.POST);
        // anything but a read must carry the CSRF token and a role that may act (a route that changes something
        // answers only POST: Dashboard.postOnly)
        boolean mutating = !request.method().equals(HttpMethod.GET) && !request.method().equals(HttpMethod.HEAD);
        if (auth.open() && !OPEN.contains(path) && !loopbackHost(request.headers().get(HttpHeaderNames.HOST))) {
            // an open listener trusts whoever reaches loopback: a page of another site whose name resolves to
            // 127.0.0.1 (DNS rebinding) must not read it nor act through it
            reply(ctx, AdminReply.text(403, "the admin listener without a token answers only loopback host names\n"),
                    keepAlive);
            return;
        }
        AdminRequest admitted;
        // the probes answer without the token: an orchestrator's liveness and readiness checks carry no secret, and
        // they say only up or down (their reasons are masked like every other text); the login form and the
        // dashboard's static files are public too
        if (OPEN.contains(path) || path.startsWith(Dashboard.STATIC) || path.equals(LoginPage.PATH)) {
            admitted = new AdminRequest(request.method().name(), path, uri.parameters(), form, null, "");
            if (path.equals(LoginPage.PATH) && post) {
                respond(ctx, () -> login(admitted), keepAlive);
                return;
            }
        } else {
            Optional<AdminAuth.Authenticated> who = auth.authenticate(
                    request.headers().get(HttpHeaderNames.AUTHORIZATION), cookie);
            if (who.isEmpty()) {
                reply(ctx, unauthenticated(path, request.method()), keepAlive);
                return;
            }
            String sessionKey = who.get().sessionKey();
            AdminPrincipal principal = who.get().principal();
            if (mutating && !auth.csrfValid(sessionKey, first(form.get(CSRF_FIELD)))) {
                reply(ctx, Dashboard.refusal(403, "The form's CSRF token is missing or wrong: reload the page and"
                        + " try again."), keepAlive);
                return;
            }
            if (post && path.equals(LoginPage.LOGOUT)) {
                auth.logout(cookie);
                reply(ctx, AdminReply.redirect(LoginPage.PATH).withHeader("Set-Cookie", AdminAuth.setCookie(null)),
                        keepAlive);
                return;
            }
            if (mutating && !principal.role().mayAct()) {
                reply(ctx, Dashboard.refusal(403, principal.name() + " has the role "
                        + principal.role().wireName() + ": viewing only, no actions."), keepAlive);
                return;
            }
            admitted = new AdminRequest(request.method().name(), path, uri.parameters(), form, principal,
                    auth.csrfToken(sessionKey));
        }
        AdminRoute route = routes.get(path);
        if (route == null) {
            reply(ctx, AdminReply.text(404, "no such admin route: " + path + "\n"), keepAlive);
            return;
        }
        respond(ctx, () -> answer(route, admitted), keepAlive);
    }

    private void respond(ChannelHandlerContext ctx, java.util.function.Supplier<AdminReply> answer,
            boolean keepAlive) {
        try {
            work.execute(() -> reply(ctx, answer.get(), keepAlive));
        } catch (RejectedExecutionException stopping) {
            reply(ctx, AdminReply.text(503, "the admin listener is stopping\n"), false);
        }
    }

    /** The login form's POST: a valid token starts a session (its cookie), anything else shows the form again. */
    private AdminReply login(AdminRequest request) {
        if (auth.open()) {
            return AdminReply.redirect(Dashboard.HOME);
        }
        return auth.login(request.param("token"))
                .map(id -> AdminReply.redirect(Dashboard.HOME).withHeader("Set-Cookie", AdminAuth.setCookie(id)))
                .orElseGet(() -> LoginPage.render(401, "That token is not one of the admin listener's."));
    }

    /** A browser asking for a page is sent to the login form; anything else gets 401 (no route is revealed). */
    private static AdminReply unauthenticated(String path, HttpMethod method) {
        if (method.equals(HttpMethod.GET) && (path.equals("/") || path.startsWith("/ui/"))) {
            return AdminReply.redirect(LoginPage.PATH);
        }
        return AdminReply.text(401, "admin token required\n");
    }

    /** Whether a {@code Host} header names this machine: localhost, 127.x or ::1 (with or without a port). */
    static boolean loopbackHost(String host) {
        if (host == null) {
            return true;
        }
        String name = host.startsWith("[") ? host.substring(1, Math.max(1, host.indexOf(']')))
                : host.contains(":") ? host.substring(0, host.indexOf(':')) : host;
        name = name.toLowerCase(java.util.Locale.ROOT);
        return name.equals("localhost") || name.endsWith(".localhost") || name.equals("::1")
                || name.matches("127(\\.\\d{1,3}){3}");
    }

    private static Map<String, List<String>> form(FullHttpRequest request) {
        String type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (!request.method().equals(HttpMethod.POST) || type == null
                || !type.startsWith(HttpHeaderValues.APPLICATION_X_WWW_FORM_URLENCODED.toString())) {
            return Map.of();
        }
        String body = request.content().toString(StandardCharsets.UTF_8);
        return new QueryStringDecoder(body, StandardCharsets.UTF_8, false).parameters();
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static AdminReply answer(AdminRoute route, AdminRequest request) {
        try {
            return route.handle(request);
        } catch (RuntimeException e) {
            LOG.warn("admin route {} failed: {}", request.path(), e.toString());
            return AdminReply.text(500, "admin route failed: " + e.getClass().getSimpleName() + "\n");
        }
    }

    private static void reply(ChannelHandlerContext ctx, AdminReply reply, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        // pages are never framed (clickjacking) and types are never sniffed
        response.headers().set("X-Frame-Options", "DENY");
        response.headers().set("X-Content-Type-Options", "nosniff");
        reply.headers().forEach((name, value) -> response.headers().set(name, value));
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
