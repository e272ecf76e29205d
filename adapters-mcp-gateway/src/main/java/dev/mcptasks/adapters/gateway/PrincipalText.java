package dev.mcptasks.adapters.gateway;

import java.util.regex.Pattern;

/**
 * What a principal is told of a stored error: its summary, not the upstream's body. A transport failure is stored
 * with what the upstream answered ({@code ... answered HTTP 502: <body>}) for operators; a principal sees up to the
 * status. The body may echo anything the upstream or a proxy saw, request headers included.
 */
final class PrincipalText {
    private static final Pattern HTTP_BODY = Pattern.compile("(HTTP \\d{3}\\)?):\\s.*$", Pattern.DOTALL);

    private PrincipalText() {}

    static String summary(String error) {
        return error == null ? null : HTTP_BODY.matcher(error).replaceFirst("$1");
    }
}
