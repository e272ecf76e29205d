package dev.mcptasks.domain;

/** Randomness injected into the model (the model itself never calls a random generator). */
@FunctionalInterface
public interface RandomSource {
    /** A value in [0, 1). */
    double nextDouble();
}
