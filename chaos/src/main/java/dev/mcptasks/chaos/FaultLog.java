package dev.mcptasks.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every fault the harness injected and every process start and exit, in order; thread-safe. */
public final class FaultLog {
    private final List<FaultEvent> events = new ArrayList<>();

    public synchronized void record(FaultEvent event) {
        events.add(event);
    }

    public synchronized List<FaultEvent> events() {
        return List.copyOf(events);
    }

    /**
     * The first fault that interrupted {@code tag}'s calls within [{@code fromMs}, {@code toMs}]: the documented
     * reason why a call of that incarnation may still be running on the server while a peer works on the same task.
     */
    public synchronized Optional<FaultEvent> interruption(String tag, long fromMs, long toMs) {
        return events.stream()
                .filter(event -> event.tag().equals(tag) && event.kind().interruptsCalls())
                .filter(event -> event.atMs() >= fromMs && event.atMs() <= toMs)
                .findFirst();
    }

    /**
     * The stop of {@code tag} that began before {@code stoppedBeforeMs} and whose continue came at most
     * {@code withinMs} before {@code sentAtMs}: a request the worker checked its lease for before the stop and wrote
     * right after it was continued (a pause between the last check and the write, which no check can close).
     */
    public synchronized Optional<FaultEvent> resumedJustBefore(String tag, long stoppedBeforeMs, long sentAtMs,
            long withinMs) {
        FaultEvent stop = null;
        for (FaultEvent event : events) {
            if (!event.tag().equals(tag) || event.atMs() > sentAtMs) {
                continue;
            }
            if (event.kind() == FaultEvent.Kind.STOP) {
                stop = event;
            } else if (event.kind() == FaultEvent.Kind.CONT && stop != null && stop.atMs() < stoppedBeforeMs
                    && sentAtMs - event.atMs() <= withinMs) {
                return Optional.of(stop);
            }
        }
        return Optional.empty();
    }

    public synchronized long count(FaultEvent.Kind kind) {
        return events.stream().filter(event -> event.kind() == kind).count();
    }
}
