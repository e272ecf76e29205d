package dev.mcptasks.app.logging;

import dev.mcptasks.ports.secret.SecretRedactor;
import java.util.Objects;

/**
 * The secret values the log must never show, for the log converters ({@link RedactedMessageConverter},
 * {@link RedactedThrowableConverter}), which logback creates itself: set once the configuration is read, before any
 * server is contacted. Until then nothing is known and nothing is removed.
 */
public final class LogRedaction {
    private static volatile SecretRedactor secrets = SecretRedactor.NONE;

    private LogRedaction() {}

    public static void use(SecretRedactor redactor) {
        secrets = Objects.requireNonNull(redactor, "redactor");
    }

    static String redact(String text) {
        return secrets.redact(text);
    }
}
