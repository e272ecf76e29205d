package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One task the submitter will send: when (ms after the start of the window), with which {@code work} arguments, and
 * whether (and how long after submitting) the user cancels it.
 *
 * @param cancelAfterMs delay of the user's cancel after the submit, or -1 for none
 */
public record TaskPlan(String key, String kind, long submitAtMs, String arguments, long cancelAfterMs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A seeded mix: fast, longer than the lease, slow status answers (longer than the lease), slow create answers
     * (a kill then leaves a created task the store never heard of), failing, slow cancel answers (cancelled by the
     * user), and user cancels of others at random times.
     *
     * <p>With {@code on2026} (the server speaks 2026-07-28 and the workers will too) every second slow-cancel
     * task is {@code slow-cancel-ignored} instead: the server acknowledges the cancel and lets the task finish a few
     * seconds after that answer, the race a 2026 cancel may lose (the row must then end {@code completed}, not
     * {@code cancelled}). That choice draws nothing from {@code random}, so a seed gives the same submits, kinds and
     * cancel times in both generations.
     */
    public static List<TaskPlan> mix(Random random, int count, long submitWindowMs, int leaseSeconds,
            boolean on2026) {
        long lease = leaseSeconds * 1000L;
        List<TaskPlan> plans = new ArrayList<>();
        int slowCancels = 0;
        for (int i = 0; i < count; i++) {
            String key = "c" + i;
            ObjectNode args = JSON.createObjectNode().put(ServerJournal.KEY_ARGUMENT, key).put("result", "result-" + i);
            int dice = random.nextInt(100);
            String kind;
            long cancelAfter = -1;
            if (dice < 25) {
                kind = "fast";
                args.put("durationMs", 300 + random.nextInt(1_700));
            } else if (dice < 40) {
                kind = "longer-than-lease";
                args.put("durationMs", lease + 1_000 + random.nextInt((int) lease));
            } else if (dice < 55) {
                kind = "slow-status";
                args.put("durationMs", 1_000 + random.nextInt(4_000)).put("statusDelayMs", lease + 1_000);
            } else if (dice < 75) {
                kind = "slow-create";
                args.put("durationMs", 1_000 + random.nextInt(3_000)).put("createDelayMs", 2_000 + random.nextInt(2_000));
                // half are cancelled while their create may be in flight, or its sender dead before storing it
                if (random.nextBoolean()) {
                    cancelAfter = 1_500 + random.nextInt(4_000);
                }
            } else if (dice < 85) {
                kind = "failing";
                args.put("durationMs", 500 + random.nextInt(2_500)).put("fail", true).put("failMessage", "boom-" + i);
            } else {
                kind = "slow-cancel";
                args.put("durationMs", 30_000).put("cancelDelayMs", lease + 1_000);
                cancelAfter = 1_000 + random.nextInt(4_000);
                if (on2026 && slowCancels++ % 2 == 1) {
                    kind = "slow-cancel-ignored";
                    // ends about 3 s after the acknowledgement leaves, well before the settle timeout
                    args.put("durationMs", cancelAfter + lease + 4_000).put("cancelIgnored", true);
                }
            }
            if (cancelAfter < 0 && random.nextInt(100) < 25) {
                cancelAfter = random.nextInt(5_000);
            }
            plans.add(new TaskPlan(key, kind, (long) (random.nextDouble() * submitWindowMs), args.toString(),
                    cancelAfter));
        }
        plans.sort((a, b) -> Long.compare(a.submitAtMs(), b.submitAtMs()));
        return plans;
    }
}
