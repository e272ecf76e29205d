package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll phase: reads the remote task (with its result when terminal) and stores what it reports. A task the
 * server does not know goes to {@link LostTaskVerdict}; a malformed answer is terminal, and so is a refused
 * authorization ({@link RemoteFailure#AUTH_REQUIRED}: polling again cannot help until someone logs in, so the task
 * is not retried forever); any other failure is a failure release with backoff and degradation tracking.
 *
 * <p>A row with answers pending first delivers them ({@code tasks/update}), then reads the status in the same claim,
 * and stores it with the delivered answers, which the store clears only if no other answer arrived meanwhile. The
 * server acknowledges answers only, and ignores keys it no longer waits for, so answers whose delivery may or may not
 * have happened (a failure release keeps them pending) are simply sent again by the next poll. Answers the driver
 * cannot deliver at all ({@link RemoteFailure#UNSUPPORTED}: nothing was sent, and sending again cannot help) are
 * dropped with a note in the stored status message, instead of being tried again by every poll.
 */
final class PollHandler implements PhaseHandler {
    private static final Logger LOG = LoggerFactory.getLogger(PollHandler.class);

    private final TaskRepository repository;
    private final ResultWrites results;
    private final TaskDriverRegistry drivers;
    private final Transitions transitions;
    private final LostTaskVerdict lost;

    PollHandler(TaskRepository repository, ResultWrites results, TaskDriverRegistry drivers, Transitions transitions,
            LostTaskVerdict lost) {
        this.repository = repository;
        this.results = results;
        this.drivers = drivers;
        this.transitions = transitions;
        this.lost = lost;
    }

    @Override
    public ClaimPhase phase() {
        return ClaimPhase.POLL;
    }

    @Override
    public void run(ClaimContext context) {
        TaskRecord row = context.claimed().task();
        if (row.state().remoteTaskId() == null) {
            Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR,
                    "the task is " + row.status().wireName() + " but has no remote task id"), results, transitions);
            return;
        }
        TaskDriver driver = Handlers.driver(drivers, context, row, repository, transitions, true);
        if (driver == null) {
            return;
        }
        RemoteTaskRef ref = Handlers.ref(row);
        String answers = row.state().inputResponsesJson();
        if (answers == null) {
            poll(context, row, driver, ref, null, null);
            return;
        }
        // answers are accepted only while input_required, but a poll may have stored the next status meanwhile: they
        // are delivered whatever the status (the server ignores keys it no longer waits for), never stranded
        context.call(permit -> driver.answer(ref, answers, permit),
                (ignored, error) -> answered(context, row, driver, ref, answers, error));
    }

    private void answered(ClaimContext context, TaskRecord row, TaskDriver driver, RemoteTaskRef ref, String answers,
            Throwable error) {
        if (error == null) {
            poll(context, row, driver, ref, answers, null);
            return;
        }
        RemoteFailure failure = Transitions.classify(error);
        String message = Transitions.describe(error);
        switch (failure) {
            case UNSUPPORTED -> {
                String note = "answers to input requests " + keys(answers) + " were not delivered and were dropped: "
                        + message;
                LOG.warn("task {}: {}", row.id(), note);
                poll(context, row, driver, ref, answers, note);
            }
            case TASK_LOST -> lost.settle(context, row, "the server no longer knows the task it was sending answers"
                    + " to: " + message);
            case AUTH_REQUIRED -> Handlers.finishAuthRequired(context, row, message, results, transitions);
            default -> Handlers.finishFailure(context, repository, transitions.failure(row,
                    "answers to input requests " + keys(answers) + " not delivered (kept, sent again by the next"
                            + " poll): " + message, context.now(), false, true));
        }
    }

    /**
     * Reads the status; {@code delivered} are the answers this claim sent (or dropped), cleared by the write only if
     * they are still the pending ones; {@code note} is added to the stored status message.
     */
    private void poll(ClaimContext context, TaskRecord row, TaskDriver driver, RemoteTaskRef ref, String delivered,
            String note) {
        context.call(permit -> driver.status(ref, permit),
                (snapshot, error) -> settle(context, row, snapshot, error, delivered, note));
    }

    private void settle(ClaimContext context, TaskRecord row, RemoteTaskSnapshot snapshot, Throwable error,
            String delivered, String note) {
        Instant completedAt = context.now();
        if (error == null) {
            RemoteTaskSnapshot observed = note == null ? snapshot
                    : snapshot.withStatusMessage(Transitions.withNote(snapshot.statusMessage(), note));
            OutcomeWrite write = transitions.observed(row, observed, completedAt, delivered);
            context.finish(FencedWrite.APPLY_OUTCOME, () -> results.applyOutcome(context.claimed().claim(), write));
            return;
        }
        RemoteFailure failure = Transitions.classify(error);
        String message = Transitions.describe(error);
        switch (failure) {
            case TASK_LOST -> lost.settle(context, row, "the server no longer knows the task: " + message);
            case AUTH_REQUIRED -> Handlers.finishAuthRequired(context, row, message, results, transitions);
            case PROTOCOL -> Handlers.finishTerminal(context, row, StoredSnapshot.failed(ErrorCodes.PROTOCOL_ERROR,
                    "malformed status response: " + message), results, transitions);
            default -> Handlers.finishFailure(context, repository,
                    transitions.failure(row, message, completedAt, false, true));
        }
    }

    /** The keys of an answers object, for messages; the stored text itself when it is not one. */
    static String keys(String answersJson) {
        try {
            if (StrictJson.parse(answersJson) instanceof Map<?, ?> map) {
                TreeSet<String> keys = new TreeSet<>();
                map.keySet().forEach(key -> keys.add(String.valueOf(key)));
                return String.join(", ", keys);
            }
        } catch (RuntimeException e) {
            // fall through: a message must not fail
        }
        return answersJson;
    }
}
