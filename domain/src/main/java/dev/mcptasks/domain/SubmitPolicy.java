package dev.mcptasks.domain;

/**
 * What to do with a task whose create request may have reached the server before its worker died. Creation is not
 * idempotent in MCP 2025-11-25, so the default never sends twice.
 */
public enum SubmitPolicy {
    /** Mark the task failed with {@code submit_outcome_unknown}. */
    AT_MOST_ONCE,
    /** Send the create request again (the server may then run the tool twice). */
    AT_LEAST_ONCE;

    public static SubmitPolicy fromConfig(String value) {
        return switch (value) {
            case "atMostOnce" -> AT_MOST_ONCE;
            case "atLeastOnce" -> AT_LEAST_ONCE;
            default -> throw new DomainException("submitPolicy must be atMostOnce or atLeastOnce, was '" + value + "'");
        };
    }
}
