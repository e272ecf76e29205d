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

    public synchronized long count(FaultEvent.Kind kind) {
        return events.stream().filter(event -> event.kind() == kind).count();
    }
}
