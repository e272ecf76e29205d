package dev.mcptasks.app.demo;

import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.ForwardingWorkerRegistry;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The store as one worker sees it. After {@link #crash()} every call fails, as if the worker's process had died:
 * nothing it still tries to write (results, renewals, releases, heartbeats) reaches the store. Every role is
 * switched: each forwards to the store only while the switch is on.
 */
final class CrashSwitchRepository implements ComposedTaskRepository {
    private final Roles roles;
    private final AtomicBoolean crashed;

    CrashSwitchRepository(TaskRepository store) {
        this(store, new AtomicBoolean());
    }

    private CrashSwitchRepository(TaskRepository store, AtomicBoolean crashed) {
        this.roles = ComposedTaskRepository.of(new SwitchedTasks(store, crashed), new SwitchedClaims(store, crashed),
                new SwitchedOutbox(store, crashed), new SwitchedWorkers(store, crashed),
                new SwitchedScope(store, crashed));
        this.crashed = crashed;
    }

    @Override
    public Roles roles() {
        return roles;
    }

    void crash() {
        crashed.set(true);
    }

    private static <T> T unlessCrashed(AtomicBoolean crashed, T role) {
        if (crashed.get()) {
            throw new RepositoryUnavailableException("this worker crashed", null);
        }
        return role;
    }

    private static final class SwitchedTasks implements ForwardingTaskRecords {
        private final TaskRecords delegate;
        private final AtomicBoolean crashed;

        SwitchedTasks(TaskRecords store, AtomicBoolean crashed) {
            this.delegate = store;
            this.crashed = crashed;
        }

        @Override
        public TaskRecords delegate() {
            return unlessCrashed(crashed, delegate);
        }
    }

    private static final class SwitchedClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final AtomicBoolean crashed;

        SwitchedClaims(TaskClaims store, AtomicBoolean crashed) {
            this.delegate = store;
            this.crashed = crashed;
        }

        @Override
        public TaskClaims delegate() {
            return unlessCrashed(crashed, delegate);
        }
    }

    private static final class SwitchedOutbox implements ForwardingNotificationOutbox {
        private final NotificationOutbox delegate;
        private final AtomicBoolean crashed;

        SwitchedOutbox(NotificationOutbox store, AtomicBoolean crashed) {
            this.delegate = store;
            this.crashed = crashed;
        }

        @Override
        public NotificationOutbox delegate() {
            return unlessCrashed(crashed, delegate);
        }
    }

    private static final class SwitchedWorkers implements ForwardingWorkerRegistry {
        private final WorkerRegistry delegate;
        private final AtomicBoolean crashed;

        SwitchedWorkers(WorkerRegistry store, AtomicBoolean crashed) {
            this.delegate = store;
            this.crashed = crashed;
        }

        @Override
        public WorkerRegistry delegate() {
            return unlessCrashed(crashed, delegate);
        }
    }

    private static final class SwitchedScope implements ForwardingStoreScope {
        private final StoreScope delegate;
        private final AtomicBoolean crashed;

        SwitchedScope(StoreScope store, AtomicBoolean crashed) {
            this.delegate = store;
            this.crashed = crashed;
        }

        @Override
        public StoreScope delegate() {
            return unlessCrashed(crashed, delegate);
        }
    }
}
