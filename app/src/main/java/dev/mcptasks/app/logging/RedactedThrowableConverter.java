package dev.mcptasks.app.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %redactedEx}: the exception and its causes without any known secret in their messages. */
public final class RedactedThrowableConverter extends ThrowableProxyConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogRedaction.redact(super.convert(event));
    }
}
