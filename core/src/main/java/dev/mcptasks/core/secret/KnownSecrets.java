package dev.mcptasks.core.secret;

import dev.mcptasks.ports.secret.SecretRedactor;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The process's secret values and the forms they travel in: as they are, JSON-escaped (inside a stored result or an
 * error body that is JSON) and URL-encoded (echoed from a query string). Longer values are replaced first, so a
 * secret containing another is removed whole. Reads are lock-free: the list is replaced on each (rare) addition.
 */
public final class KnownSecrets implements SecretRedactor {
    /** Shorter values are not credentials: redacting them would cut ordinary words out of messages. */
    public static final int MIN_LENGTH = 8;
    static final String MARK = "[redacted]";

    private volatile List<String> forms = List.of();

    @Override
    public synchronized void remember(String secret) {
        if (secret == null || secret.length() < MIN_LENGTH) {
            return;
        }
        Set<String> all = new LinkedHashSet<>(forms);
        all.add(secret);
        all.add(jsonEscaped(secret));
        all.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
        forms = all.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    @Override
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String redacted = text;
        for (String form : forms) {
            if (redacted.contains(form)) {
                redacted = redacted.replace(form, MARK);
            }
        }
        return redacted;
    }

    private static String jsonEscaped(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '/' -> out.append('/');
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
