package dev.mcptasks.chaos;

import java.time.Duration;

/**
 * How long and how hard one run (per database) is.
 *
 * @param faultWindow how long faults are injected; tasks are submitted during the first 70 % of it
 * @param tasks how many tasks are submitted
 * @param faultGapMinMs shortest pause between two faults
 * @param faultGapMaxMs longest pause between two faults
 * @param settleTimeout how long the workers get, without faults, to bring every task to a terminal status
 * @param leaseSeconds the workers' lease: short, so takeovers happen within the run
 */
public record ChaosProfile(String name, Duration faultWindow, int tasks, long faultGapMinMs, long faultGapMaxMs,
        Duration settleTimeout, int leaseSeconds) {

    /** For CI: about a minute and a half per database on two cores. */
    public static ChaosProfile shortRun() {
        return new ChaosProfile("short", Duration.ofSeconds(40), 32, 2_000, 4_000, Duration.ofSeconds(40), 5);
    }

    /** For a developer: five minutes of faults per database. */
    public static ChaosProfile longRun() {
        return new ChaosProfile("long", Duration.ofMinutes(5), 200, 2_000, 6_000, Duration.ofSeconds(90), 5);
    }

    /** SIGSTOP lasts longer than the lease, so a peer takes the stopped worker's claims over. */
    public long stopMillis(java.util.Random random) {
        return leaseSeconds * 1000L + 1_000 + random.nextInt(2_000);
    }

    /** The workers' {@code drainSeconds}: how long a SIGTERM may take before it counts as a hang. */
    public int drainSeconds() {
        return 2;
    }
}
