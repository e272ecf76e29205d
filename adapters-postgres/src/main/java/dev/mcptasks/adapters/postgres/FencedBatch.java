package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs a batched fenced write as one UPDATE ... FROM unnest(...) RETURNING id and turns the ids it changed into
 * per-element outcomes. The hook runs for every element before "now" is read and before the statement, as for a single
 * write. Matching outcomes by row is sound only because the elements are of distinct rows: checked here, since two
 * elements of one row would join it twice and the UPDATE would apply only one of them.
 */
final class FencedBatch {
    private final PostgresStore store;
    private final Clock clock;
    private final FencedWriteHook hook;

    FencedBatch(PostgresStore store, Clock clock, FencedWriteHook hook) {
        this.store = store;
        this.clock = clock;
        this.hook = hook;
    }

    /**
     * {@code eligible} are the elements the statement judges (in order); the others are refused without a statement
     * (as their single write refuses them before its hook). Returns whether each of {@code all} changed its row.
     */
    List<Boolean> run(FencedWrite write, List<TaskId> all, List<TaskId> eligible,
            Function<Instant, Function<TaskMapper, List<String>>> update) {
        Set<String> distinct = new HashSet<>();
        for (TaskId id : all) {
            if (!distinct.add(id.value())) {
                throw new IllegalArgumentException("batched " + name(write) + " names task " + id
                        + " twice: the elements of one batch must be of distinct rows");
            }
        }
        if (eligible.isEmpty()) {
            return all.stream().map(id -> false).toList();
        }
        for (TaskId id : eligible) {
            hook.beforeFencedWrite(write, id);
        }
        Instant now = Times.now(clock);
        Set<String> changed = new HashSet<>(store.autoCommit(
                "batched " + name(write) + " of " + eligible.size() + " tasks", update.apply(now)));
        List<Boolean> outcomes = new ArrayList<>(all.size());
        for (TaskId id : all) {
            outcomes.add(changed.contains(id.value()));
        }
        return outcomes;
    }

    private static String name(FencedWrite write) {
        return write.name().toLowerCase(Locale.ROOT);
    }
}
