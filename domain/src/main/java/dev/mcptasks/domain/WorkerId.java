package dev.mcptasks.domain;

/** One runtime instance, unique per start (host + pid + random by convention). */
public record WorkerId(String value) {
    public WorkerId {
        Identifiers.require("worker id", value);
    }

    public static WorkerId of(String value) {
        return new WorkerId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
