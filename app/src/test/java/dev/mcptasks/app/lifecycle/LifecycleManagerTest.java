package dev.mcptasks.app.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleManagerTest {
    private final List<String> events = new ArrayList<>();

    /** Records its start and stop; fails on request. */
    private final class Recording implements LifecycleListener {
        private final String name;
        private final boolean failStart;
        private final boolean failStop;

        Recording(String name, boolean failStart, boolean failStop) {
            this.name = name;
            this.failStart = failStart;
            this.failStop = failStop;
        }

        @Override
        public void start() {
            events.add("start " + name);
            if (failStart) {
                throw new IllegalStateException(name + " cannot start");
            }
        }

        @Override
        public void stop() {
            events.add("stop " + name);
            if (failStop) {
                throw new IllegalStateException(name + " cannot stop");
            }
        }
    }

    private Recording ok(String name) {
        return new Recording(name, false, false);
    }

    @Test
    void startsInOrderAndStopsInReverse() {
        LifecycleManager manager = new LifecycleManager().add("a", ok("a")).add("b", ok("b")).add("c", ok("c"));

        manager.start();
        List<Exception> failures = manager.stop();

        assertThat(events).containsExactly("start a", "start b", "start c", "stop c", "stop b", "stop a");
        assertThat(failures).isEmpty();
    }

    @Test
    void aFailedStartStopsOnlyTheComponentsStartedBeforeIt() {
        LifecycleManager manager = new LifecycleManager()
                .add("a", ok("a")).add("b", ok("b")).add("c", new Recording("c", true, false)).add("d", ok("d"));

        assertThatThrownBy(manager::start)
                .isInstanceOf(LifecycleException.class)
                .hasMessageContaining("could not start c: c cannot start")
                .satisfies(e -> assertThat(((LifecycleException) e).component()).isEqualTo("c"));

        assertThat(events).containsExactly("start a", "start b", "start c", "stop b", "stop a");
        manager.stop();
        assertThat(events).hasSize(5);
    }

    @Test
    void stoppingContinuesPastAFailure() {
        LifecycleManager manager = new LifecycleManager()
                .add("a", ok("a")).add("b", new Recording("b", false, true)).add("c", ok("c"));
        manager.start();

        List<Exception> failures = manager.stop();

        assertThat(events).containsExactly("start a", "start b", "start c", "stop c", "stop b", "stop a");
        assertThat(failures).singleElement().satisfies(e -> assertThat(e).hasMessage("b cannot stop"));
    }

    @Test
    void stopFailuresDuringAFailedStartAreSuppressed() {
        LifecycleManager manager = new LifecycleManager()
                .add("a", new Recording("a", false, true)).add("b", new Recording("b", true, false));

        assertThatThrownBy(manager::start)
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessage("a cannot stop")));
        assertThat(events).containsExactly("start a", "start b", "stop a");
    }

    @Test
    void stopIsIdempotentAndSafeBeforeStart() {
        LifecycleManager manager = new LifecycleManager().add("a", ok("a"));
        manager.stop();
        assertThat(events).isEmpty();
        assertThatThrownBy(manager::start).isInstanceOf(IllegalStateException.class);

        LifecycleManager second = new LifecycleManager().add("b", ok("b"));
        second.start();
        second.stop();
        second.stop();
        assertThat(events).containsExactly("start b", "stop b");
    }

    @Test
    void componentsCannotBeAddedOrStartedTwiceAfterStart() {
        LifecycleManager manager = new LifecycleManager().add("a", ok("a"));
        manager.start();

        assertThatThrownBy(() -> manager.add("b", ok("b"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot add b");
        assertThatThrownBy(manager::start).isInstanceOf(IllegalStateException.class);
        manager.stop();
    }

    @Test
    void closingAdapterClosesOnStop() {
        LifecycleManager manager = new LifecycleManager().add("pool", LifecycleListener.closing(() -> events.add("closed")));
        manager.start();
        assertThat(events).isEmpty();
        manager.stop();
        assertThat(events).containsExactly("closed");
    }
}
