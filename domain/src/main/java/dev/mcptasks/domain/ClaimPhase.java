package dev.mcptasks.domain;

import java.util.Locale;

/**
 * What a claim is for. A row is in exactly one control phase at a time ({@code submit} while pending,
 * {@code cancel} once cancellation is requested, {@code poll} otherwise); the notify phase has a lease of its own.
 */
public enum ClaimPhase {
    SUBMIT,
    POLL,
    CANCEL,
    NOTIFY;

    public boolean isControl() {
        return this != NOTIFY;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ClaimPhase fromWire(String value) {
        for (ClaimPhase phase : values()) {
            if (phase.wireName().equals(value)) {
                return phase;
            }
        }
        throw new DomainException("unknown claim phase '" + value + "'");
    }
}
