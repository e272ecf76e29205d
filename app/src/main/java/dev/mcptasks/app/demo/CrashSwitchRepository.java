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
final class CrashSwitchRepository extends ComposedTaskRepository {
    private final AtomicBoolean crashed;

    CrashSwitchRepository(TaskRepository store) {
        this(store, new AtomicBoolean());
    }

    private CrashSwitchRepository(TaskRepository store, AtomicBoolean crashed) {
        super(new SwitchedTasks(store, crashed), new SwitchedClaims(store, crashed),
                new SwitchedOutbox(store, crashed), new SwitchedWorkers(store, crashed),
                new SwitchedScope(store, crashed));
        this.crashed = crashed;
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

    private static final class SwitchedTasks extends ForwardingTaskRecords {
        private final AtomicBoolean crashed;

        SwitchedTasks(TaskRecords store, AtomicBoolean crashed) {
            super(store);
            this.crashed = crashed;
        }

        @Override
        protected TaskRecords delegate() {
            return unlessCrashed(crashed, super.delegate());
        }
    }

    private static final class SwitchedClaims extends ForwardingTaskClaims {
        private final AtomicBoolean crashed;

        SwitchedClaims(TaskClaims store, AtomicBoolean crashed) {
            super(store);
            this.crashed = crashed;
        }

        @Override
        protected TaskClaims delegate() {
            return unlessCrashed(crashed, super.delegate());
        }
    }

    private static final class SwitchedOutbox extends ForwardingNotificationOutbox {
        private final AtomicBoolean crashed;

        SwitchedOutbox(NotificationOutbox store, AtomicBoolean crashed) {
            super(store);
            this.crashed = crashed;
        }

        @Override
        protected NotificationOutbox delegate() {
            return unlessCrashed(crashed, super.delegate());
        }
    }

    private static final class SwitchedWorkers extends ForwardingWorkerRegistry {
        private final AtomicBoolean crashed;

        SwitchedWorkers(WorkerRegistry store, AtomicBoolean crashed) {
            super(store);
            this.crashed = crashed;
        }

        @Override
        protected WorkerRegistry delegate() {
            return unlessCrashed(crashed, super.delegate());
        }
    }

    private static final class SwitchedScope extends ForwardingStoreScope {
        private final AtomicBoolean crashed;

        SwitchedScope(StoreScope store, AtomicBoolean crashed) {
            super(store);
            this.crashed = crashed;
        }

        @Override
        protected StoreScope delegate() {
            return unlessCrashed(crashed, super.delegate());
        }
    }
}
