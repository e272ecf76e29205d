package dev.mcptasks.domain;

import java.util.regex.Pattern;

/** Shared validation for the opaque identifiers of the model (task ids, worker ids, claim tokens). */
final class Identifiers {
    /** Ids are stored in indexed columns and echoed in logs: keep them short and printable. */
    static final int MAX_LENGTH = 128;

    private static final Pattern PRINTABLE = Pattern.compile("[\\x21-\\x7E]+");

    private Identifiers() {}

    static String require(String kind, String value) {
        if (value == null || value.isEmpty()) {
            throw new DomainException(kind + " must not be empty");
        }
        if (value.length() > MAX_LENGTH) {
            throw new DomainException(kind + " is " + value.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        if (!PRINTABLE.matcher(value).matches()) {
            throw new DomainException(kind + " may contain only visible ASCII characters");
        }
        return value;
    }
}
