package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskRepository;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dashboard's routes by path: its pages, their actions, the login form and the static files. Reads go through the
 * task service (and the store's figures, the metrics registry); actions through {@link OperatorActions}, which
 * audits them under the acting principal.
 */
final class DashboardRoutes {
    private DashboardRoutes() {
    }

    /**
     * @param staleAfter how long a worker may go without a heartbeat before the store holds it stale (the runtime's
     *     {@code workerStaleAfter})
     */
    static Map<String, AdminRoute> of(TaskService tasks, TaskRepository repository, AuditLog audit,
            TaskHistory history, Clock clock, MeterRegistry registry, Duration staleAfter) {
        OperatorActions actions = new OperatorActions(tasks, audit);
        TaskFinder finder = new TaskFinder(tasks, clock);
        TaskActions taskActions = new TaskActions(actions);
        ServersPage servers = new ServersPage(repository, new UpstreamHistory(registry, clock));
        DeadLettersPage deadLetters = new DeadLettersPage(tasks, actions);
        Map<String, AdminRoute> routes = new LinkedHashMap<>(StaticAssets.routes());
        routes.put("/", request -> AdminReply.redirect(Dashboard.HOME));
        routes.put("/ui", request -> AdminReply.redirect(Dashboard.HOME));
        routes.put(LoginPage.PATH, LoginPage.route());
        routes.put(TaskListPage.PATH, new TaskListPage(finder));
        routes.put(BulkCancel.PATH, new BulkCancel(finder, actions));
        routes.put(TaskPage.PATH, new TaskPage(tasks, audit, history));
        routes.put(TaskActions.CANCEL, Dashboard.postOnly(taskActions.cancel()));
        routes.put(TaskActions.ANSWER, Dashboard.postOnly(taskActions.answer()));
        routes.put(WorkersPage.PATH, new WorkersPage(tasks, staleAfter));
        routes.put(ServersPage.PATH, servers);
        routes.put(ServersPage.DATA, servers.data());
        routes.put(DeadLettersPage.PATH, deadLetters);
        routes.put(DeadLettersPage.REPLAY, Dashboard.postOnly(deadLetters.replay()));
        return routes;
    }
}
