package dev.mcptasks.domain;

/**
 * The fresh random token of one claim generation. A worker that reclaims a row gets a new token, so a write
 * fenced by the old token is rejected even though the owner is the same.
 */
public record ClaimToken(String value) {
    public ClaimToken {
        Identifiers.require("claim token", value);
    }

    public static ClaimToken of(String value) {
        return new ClaimToken(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
