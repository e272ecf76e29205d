package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser: Debian's headless Chromium driven by Selenium through Debian's chromedriver,
 * against the production assembly (a worker over a SQLite file, the reference server over HTTP, the admin listener
 * with a token). Signs in with the login form, loads the task list, filters it, opens a long task, cancels it and
 * sees it cancelled as the worker reports it; visits the other pages (the servers page's charts while upstream
 * requests go on, until they have points). A screenshot of each page goes to
 * {@code target/screenshots}. Tagged {@code browser}: run by {@code e2e/dashboard-check.sh} ({@code -Pbrowser}).
 */
@Tag("browser")
class DashboardBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "dashboard-browser-test-token";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    Path dir;

    private ReferenceServer server;
    private Application app;
    private WorkerProcess process;
    private AdminListener admin;
    private WebDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void start() throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults());
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("drainSeconds", 1);
        root.putObject("mcpServers").putObject("ref").put("url", server.startHttp(0).toString());
        root.putObject("admin").put("port", 0).put("token", TOKEN);
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("dashboard.json",
                JSON.writeValueAsString(root));
        app = AppRoot.production().openWorker(config, WorkerId.of("browser-worker"));
        process = new WorkerProcess(app);
        admin = AdminModules.start(app).orElseThrow();
        process.start();
        browser = chromium();
        wait = new WebDriverWait(browser, WAIT);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (admin != null) {
            admin.close();
        }
        if (process != null) {
            process.stop();
        }
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anOperatorFiltersOpensAndCancelsATaskInTheBrowser() throws Exception {
        TaskService tasks = app.get(TaskService.class);
        TaskRepository store = app.get(TaskRepository.class);
        List<TaskId> quick = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            quick.add(tasks.submitFor("alice", "ref", "work", "{\"durationMs\": 50, \"result\": \"report " + i
                    + "\"}", null).id());
        }
        TaskId failing = tasks.submitFor("bob", "ref", "work", "{\"durationMs\": 50, \"fail\": true}", null).id();
        TaskId slow = tasks.submitFor("bob", "ref", "work", "{\"durationMs\": 600000}", null).id();
        for (TaskId id : quick) {
            AwaitRow.until(store, id, WAIT, row -> row.status() == TaskStatus.COMPLETED, row -> row.status());
        }
        AwaitRow.until(store, failing, WAIT, row -> row.status().isTerminal(), row -> row.status());
        AwaitRow.until(store, slow, WAIT, row -> row.status() == TaskStatus.WORKING, row -> row.status());

        // an unauthenticated browser is sent to the login form; the token signs it in
        browser.get(url("/ui/tasks"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("token")));
        screenshot("01-login");
        browser.findElement(By.id("token")).sendKeys(TOKEN);
        browser.findElement(By.id("sign-in")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("tasks")));
        assertThat(rows()).hasSize(6);
        screenshot("02-task-list");

        // filter: the working tasks of bob
        new Select(browser.findElement(By.id("filter-status"))).selectByVisibleText("working");
        browser.findElement(By.id("filter-principal")).sendKeys("bob");
        browser.findElement(By.id("apply-filter")).click();
        wait.until(driver -> driver.getCurrentUrl().contains("status=working"));
        assertThat(rows()).containsExactly(slow.value());
        screenshot("03-task-list-filtered");

        // open it, cancel it, and see the change arrive (the worker sends the cancel; htmx refreshes the details)
        browser.findElement(By.linkText(slow.value())).click();
        wait.until(ExpectedConditions.textToBe(By.id("task-status"), "working"));
        screenshot("04-task");
        browser.findElement(By.id("cancel-task")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("done")));
        wait.until(ExpectedConditions.textToBe(By.id("task-status"), "cancelled"));
        // the store's claim history: the worker's submit claim, and the cancel claim that sent the cancel
        assertThat(browser.findElement(By.id("timeline")).getText()).contains("cancel_request by admin (admin)",
                "claimed: submit by", "claimed: cancel by");
        screenshot("05-task-cancelled");
        assertThat(app.get(AuditLog.class).list(new AuditQuery(slow, "admin", 10)))
                .anySatisfy(record -> assertThat(record.channel()).isEqualTo(AuditChannel.ADMIN));

        // the list shows the change too
        browser.get(url("/ui/tasks?status=cancelled"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("tasks")));
        assertThat(rows()).containsExactly(slow.value());
        screenshot("06-task-list-cancelled");

        browser.get(url("/ui/workers"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("workers"), "browser-worker"));
        screenshot("07-workers");

        // the charts plot what this process sent while the page is open: quick tasks keep requests going until the
        // latency chart has two points above zero (one every 5 s)
        browser.get(url("/ui/servers"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#upstream-charts .uplot")));
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor();
        try {
            traffic.scheduleWithFixedDelay(() -> tasks.submitFor("alice", "ref", "work",
                    "{\"durationMs\": 150}", null), 0, 400, TimeUnit.MILLISECONDS);
            By latency = By.cssSelector("[data-chart='ref/latency ms']");
            wait.until(driver -> Integer.parseInt(driver.findElement(latency).getAttribute("data-points-above-zero"))
                    >= 2);
            assertThat(Integer.parseInt(browser.findElement(latency).getAttribute("data-points")))
                    .isGreaterThanOrEqualTo(2);
        } finally {
            traffic.shutdownNow();
        }
        screenshot("08-servers");

        browser.get(url("/ui/dead-letters"));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("dead-letters")));
        screenshot("09-dead-letters");
    }

    private List<String> rows() {
        return browser.findElements(By.cssSelector("#tasks tr[data-task]")).stream()
                .map(row -> row.getAttribute("data-task")).toList();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + admin.address().getPort() + path;
    }

    private void screenshot(String name) throws Exception {
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Debian's Chromium and chromedriver, named explicitly so Selenium Manager never tries to download a browser or
     * a driver (this machine reaches no such site). {@code CHROMIUM} and {@code CHROMEDRIVER} override the paths.
     */
    private static WebDriver chromium() {
        String binary = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        String driver = System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver");
        assertThat(Path.of(binary)).as("Chromium (apt-get install chromium)").isExecutable();
        assertThat(Path.of(driver)).as("chromedriver (apt-get install chromium-driver)").isExecutable();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(driver).toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
