package dev.mcptasks.adapters.gateway;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A front list cursor across the upstream servers: which server the next page comes from and that server's own
 * cursor (null: its first page). Opaque to clients (base64url of {@code server '\n' cursor}); a cursor that does not
 * decode, or names a server that is not exposed, is a -32602.
 */
record ListCursor(String server, String upstream) {

    String encode() {
        String plain = server + '\n' + (upstream == null ? "" : "c" + upstream);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    static ListCursor decode(String cursor) {
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw FrontError.invalidParams("Invalid cursor");
        }
        int newline = plain.indexOf('\n');
        if (newline <= 0) {
            throw FrontError.invalidParams("Invalid cursor");
        }
        String rest = plain.substring(newline + 1);
        if (!rest.isEmpty() && rest.charAt(0) != 'c') {
            throw FrontError.invalidParams("Invalid cursor");
        }
        return new ListCursor(plain.substring(0, newline), rest.isEmpty() ? null : rest.substring(1));
    }
}
