package dev.mcptasks.testkit.driver;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A {@link TaskDriver} for lifecycle tests: every call stays open until the test completes it through its
 * {@link GatedCall} (or a scripted answer completes it at once), is recorded with its kind, task and start/end
 * times, and may swallow cancellation (keep running after its future was cancelled) or hang forever. Thread-safe.
 */
public final class GatedDriver implements TaskDriver {
    /** The kind of a call. */
    public enum Kind { SUBMIT, STATUS, CANCEL, ANSWER }

    /** The scripted answer of an {@link Kind#ANSWER} call that the server acknowledged. */
    public static final Object ACKNOWLEDGED = new Object() {
        @Override
        public String toString() {
            return "ACKNOWLEDGED";
        }
    };

    private record Key(Kind kind, TaskId task) {}

    private final String name;
    private final Clock clock;
    private final List<GatedCall> calls = new ArrayList<>();
    private final Map<Key, Queue<Object>> scripted = new HashMap<>();
    private final Map<Key, GatedCall.CancelBehaviour> cancelBehaviour = new HashMap<>();
    private GatedCall.CancelBehaviour defaultCancelBehaviour = GatedCall.CancelBehaviour.COOPERATE;

    public GatedDriver(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        return submit(call, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        return status(task, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return cancel(task, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit) {
        return start(Kind.SUBMIT, call.taskId(), call, permit);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task, SendPermit permit) {
        return start(Kind.STATUS, task.taskId(), task, permit);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task, SendPermit permit) {
        return start(Kind.CANCEL, task.taskId(), task, permit);
    }

    /**
     * Delivering answers: an {@link Kind#ANSWER} call whose {@link GatedCall#request()} is an
     * {@link AnswerRequest}; script {@link #ACKNOWLEDGED} (or a Throwable) to complete it.
     */
    @Override
    public CompletableFuture<Void> answer(RemoteTaskRef task, String inputResponsesJson, SendPermit permit) {
        return start(Kind.ANSWER, task.taskId(), new AnswerRequest(task, inputResponsesJson), permit);
    }

    /** What an {@link Kind#ANSWER} call was asked to deliver. */
    public record AnswerRequest(RemoteTaskRef task, String inputResponsesJson) {}

    /**
     * The next {@code kind} call for {@code task} completes at once with {@code answer} (a value, a Throwable, or
     * {@link #ACKNOWLEDGED} for an answer call).
     */
    public synchronized GatedDriver script(Kind kind, TaskId task, Object answer) {
        scripted.computeIfAbsent(new Key(kind, task), k -> new ArrayDeque<>()).add(answer);
        return this;
    }

    /** Calls of {@code kind} for {@code task} made from now on treat cancellation so. */
    public synchronized GatedDriver onCancel(Kind kind, TaskId task, GatedCall.CancelBehaviour behaviour) {
        cancelBehaviour.put(new Key(kind, task), behaviour);
        return this;
    }

    /** Every call made from now on, unless configured per task, treats cancellation so. */
    public synchronized GatedDriver onCancelByDefault(GatedCall.CancelBehaviour behaviour) {
        defaultCancelBehaviour = behaviour;
        return this;
    }

    /** Every call made so far, in start order. */
    public synchronized List<GatedCall> calls() {
        return List.copyOf(calls);
    }

    public synchronized List<GatedCall> calls(Kind kind, TaskId task) {
        return calls.stream().filter(c -> c.kind() == kind && c.task().equals(task)).toList();
    }

    public synchronized long openCalls() {
        return calls.stream().filter(c -> !c.isSettled()).count();
    }

    /** Waits for the {@code n}-th (1-based) {@code kind} call for {@code task}. */
    public synchronized GatedCall awaitCall(Kind kind, TaskId task, int n, Duration timeout)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<GatedCall> matching = calls(kind, task);
            if (matching.size() >= n) {
                return matching.get(n - 1);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("no " + kind + " call #" + n + " for " + task + " within " + timeout
                        + "; calls so far: " + calls);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Waits until at least {@code count} calls of {@code kind} (any task) were made; returns them in start order. */
    public synchronized List<GatedCall> awaitCalls(Kind kind, int count, Duration timeout)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<GatedCall> matching = calls.stream().filter(c -> c.kind() == kind).toList();
            if (matching.size() >= count) {
                return matching;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("only " + matching.size() + " of " + count + " " + kind + " calls within "
                        + timeout + "; calls so far: " + calls);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    public GatedCall awaitCall(Kind kind, TaskId task, Duration timeout)
            throws InterruptedException, TimeoutException {
        return awaitCall(kind, task, 1, timeout);
    }

    /** Completes every open call with {@code error}, also swallowing ones (test clean-up). */
    public void failAllOpen(Throwable error) {
        for (GatedCall call : calls()) {
            call.fail(error);
        }
    }

    private <T> CompletableFuture<T> start(Kind kind, TaskId task, Object request, SendPermit permit) {
        GatedCall call;
        Object answer;
        synchronized (this) {
            Key key = new Key(kind, task);
            call = new GatedCall(kind, task, request, clock.now(),
                    cancelBehaviour.getOrDefault(key, defaultCancelBehaviour), clock::now, permit);
            calls.add(call);
            Queue<Object> queue = scripted.get(key);
            answer = queue == null ? null : queue.poll();
            notifyAll();
        }
        if (answer != null) {
            call.answer(answer);
        }
        return call.future();
    }
}
