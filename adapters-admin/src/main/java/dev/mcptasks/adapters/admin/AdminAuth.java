package dev.mcptasks.adapters.admin;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who a request is: a bearer token ({@code Authorization: Bearer ...}) or the session cookie the login form set
 * ({@code HttpOnly; SameSite=Strict}), matched against the configured principals; without any configured token
 * everyone is the loopback operator. Also the CSRF tokens: every form of a page carries one, an HMAC of the session
 * (or bearer principal) under a key of this process, and every POST must bring it back.
 */
final class AdminAuth {
    static final String COOKIE = "mcp_tasks_admin";
    static final Duration SESSION_LIFETIME = Duration.ofHours(12);
    /** At most this many live sessions; the oldest expiring one goes first (a login flood cannot grow the map). */
    static final int MAX_SESSIONS = 1_000;

    /** An authenticated request: the principal and the key its CSRF token is derived from. */
    record Authenticated(AdminPrincipal principal, String sessionKey) {}

    private record Session(AdminPrincipal principal, long expiresAtNanos) {}

    private final List<AdminUser> users;
    private final List<byte[]> tokenDigests;
    private final SecureRandom random = new SecureRandom();
    private final byte[] key = new byte[32];
    private final LongSupplier nanoTime;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    AdminAuth(AdminSettings settings, LongSupplier nanoTime) {
        this.users = settings.principals();
        this.tokenDigests = users.stream().map(user -> sha256(user.token())).toList();
        this.nanoTime = nanoTime;
        random.nextBytes(key);
    }

    boolean open() {
        return users.isEmpty();
    }

    /** The request's principal, or empty when it brings no valid token nor live session. */
    Optional<Authenticated> authenticate(String authorization, String cookieHeader) {
        if (open()) {
            return Optional.of(new Authenticated(AdminPrincipal.LOOPBACK, "open"));
        }
        if (authorization != null && authorization.startsWith("Bearer ")) {
            return user(authorization.substring("Bearer ".length()))
                    .map(user -> new Authenticated(principal(user), "bearer:" + user.name()));
        }
        String id = cookie(cookieHeader);
        if (id == null) {
            return Optional.empty();
        }
        Session session = sessions.get(id);
        if (session == null || nanoTime.getAsLong() - session.expiresAtNanos() > 0) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(new Authenticated(session.principal(), "session:" + id));
    }

    /** A new session for the principal of {@code token}, as its cookie value; empty for an unknown token. */
    Optional<String> login(String token) {
        Optional<AdminUser> user = token == null ? Optional.empty() : user(token);
        if (user.isEmpty()) {
            return Optional.empty();
        }
        long now = nanoTime.getAsLong();
        sessions.values().removeIf(session -> now - session.expiresAtNanos() > 0);
        while (sessions.size() >= MAX_SESSIONS) {
            evictOldest();
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        sessions.put(id, new Session(principal(user.get()), now + SESSION_LIFETIME.toNanos()));
        return Optional.of(id);
    }

    void logout(String cookieHeader) {
        String id = cookie(cookieHeader);
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** The {@code Set-Cookie} value of a session (an empty value and Max-Age=0 clears it). */
    static String setCookie(String id) {
        return COOKIE + "=" + (id == null ? "" : id) + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
                + (id == null ? 0 : SESSION_LIFETIME.toSeconds());
    }

    String csrfToken(String sessionKey) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(sessionKey.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** Whether {@code presented} is the CSRF token of the session (constant time). */
    boolean csrfValid(String sessionKey, String presented) {
        return presented != null && MessageDigest.isEqual(csrfToken(sessionKey).getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8));
    }

    private Optional<AdminUser> user(String token) {
        // every digest compared in constant time, and all of them: neither a token nor which one matched leaks
        byte[] presented = sha256(token);
        AdminUser found = null;
        for (int i = 0; i < users.size(); i++) {
            if (MessageDigest.isEqual(tokenDigests.get(i), presented)) {
                found = users.get(i);
            }
        }
        return Optional.ofNullable(found);
    }

    private void evictOldest() {
        Iterator<Map.Entry<String, Session>> it = sessions.entrySet().iterator();
        Map.Entry<String, Session> oldest = null;
        while (it.hasNext()) {
            Map.Entry<String, Session> entry = it.next();
            if (oldest == null || entry.getValue().expiresAtNanos() - oldest.getValue().expiresAtNanos() < 0) {
                oldest = entry;
            }
        }
        if (oldest != null) {
            sessions.remove(oldest.getKey());
        }
    }

    private static AdminPrincipal principal(AdminUser user) {
        return new AdminPrincipal(user.name(), user.role());
    }

    private static String cookie(String header) {
        if (header == null) {
            return null;
        }
        for (String part : header.split(";")) {
            String pair = part.strip();
            if (pair.startsWith(COOKIE + "=")) {
                String value = pair.substring(COOKIE.length() + 1);
                return value.isEmpty() ? null : value;
            }
        }
        return null;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
