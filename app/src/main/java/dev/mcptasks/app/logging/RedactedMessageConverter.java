package dev.mcptasks.app.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %redactedMsg}: the formatted message without any known secret (whatever an upstream echoed into it). */
public final class RedactedMessageConverter extends MessageConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogRedaction.redact(super.convert(event));
    }
}
