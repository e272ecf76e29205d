package dev.mcptasks.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of architecture.md, enforced on the production classes of every module (the runtime core's
 * own rule is {@code runtime.RuntimeArchitectureTest}).
 */
class ArchitectureTest {
    private static final String[] ADAPTERS = {
        "dev.mcptasks.sqlite..", "dev.mcptasks.postgres..", "dev.mcptasks.stdio..", "dev.mcptasks.http..",
        "dev.mcptasks.sse..", "dev.mcptasks.oauth..", "dev.mcptasks.webhook..", "dev.mcptasks.admin.."
    };

    private static JavaClasses production;

    /** Test classes arrive as directories (test-classes) and, for shared test support, as test-jars. */
    private static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar")
            && !location.contains("/test-classes/");

    @BeforeAll
    static void importClasses() {
        // sibling modules arrive as directories (IDE) or jars (reactor): import both, tests of neither
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(NO_TEST_JARS)
                .importPackages("dev.mcptasks");
    }

    @Test
    void domainImportsOnlyTheJdk() {
        ArchRule rule = classes().that().resideInAPackage("dev.mcptasks.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.mcptasks.domain..", "java..");
        rule.check(production);
    }

    @Test
    void domainTakesNoTimeNorRandomnessFromTheEnvironment() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.mcptasks.domain..")
                .should().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.util.UUID.class, "randomUUID")
                .orShould().callMethod(Math.class, "random")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callConstructor(java.util.Random.class)
                .orShould().callConstructor(java.security.SecureRandom.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.ThreadLocalRandom.class);
        rule.check(production);
    }

    @Test
    void portsDependOnlyOnTheDomainAndTheJdk() {
        classes().that().resideInAPackage("dev.mcptasks.ports..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.mcptasks.ports..", "dev.mcptasks.domain..", "java..")
                .check(production);
    }

    @Test
    void adaptersNeverDependOnEachOtherNorOnTheApplication() {
        for (String adapter : ADAPTERS) {
            String[] forbidden = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(ADAPTERS).filter(other -> !other.equals(adapter)),
                            java.util.stream.Stream.of("dev.mcptasks.app..", "dev.mcptasks.core..",
                                    "dev.mcptasks.gateway..", "dev.mcptasks.mcp..",
                                    "dev.mcptasks.testkit..", "dev.mcptasks.reference.."))
                    .toArray(String[]::new);
            noClasses().that().resideInAPackage(adapter)
                    .should().dependOnClassesThat().resideInAnyPackage(forbidden)
                    .allowEmptyShould(true)
                    .check(production);
        }
    }

    /**
     * An inbound adapter (the MCP gateway) builds on the core, the ports and the domain; it knows no outbound adapter
     * (stores, transports), not the MCP client, and not the composition root that wires them to it.
     */
    @Test
    void inboundAdaptersDependOnTheCoreButNoOtherAdapter() {
        noClasses().that().resideInAPackage("dev.mcptasks.gateway..")
                .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS)
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.mcptasks.app..", "dev.mcptasks.mcp..",
                        "dev.mcptasks.testkit..", "dev.mcptasks.reference..")
                .check(production);
    }

    @Test
    void onlyTheApplicationRootCreatesTheInjector() {
        noClasses().that().resideOutsideOfPackage("dev.mcptasks.app.assembly..")
                .should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                        com.tngtech.archunit.base.DescribedPredicate.describe("Guice.createInjector",
                                target -> target.getOwner().getName().equals("com.google.inject.Guice")
                                        && target.getName().equals("createInjector"))))
                .allowEmptyShould(true)
                .check(production);
    }

    @Test
    void theMcpClientKnowsTransportsOnlyThroughThePort() {
        noClasses().that().resideInAPackage("dev.mcptasks.mcp..")
                .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS)
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.mcptasks.app..", "dev.mcptasks.core..")
                .allowEmptyShould(true)
                .check(production);
    }

    /**
     * The composition root ({@code app}: assembly, configuration, the command line) is a leaf: an inbound adapter
     * (an MCP gateway, an HTTP API) depends on the core ({@code dev.mcptasks.core}), never on {@code app}. Only the
     * tools that drive the whole application (the chaos suite, the benchmark) may use it.
     */
    @Test
    void nothingButTheApplicationsOwnToolsDependsOnTheApplication() {
        noClasses().that().resideOutsideOfPackages("dev.mcptasks.app..", "dev.mcptasks.chaos..",
                        "dev.mcptasks.bench..")
                .should().dependOnClassesThat().resideInAPackage("dev.mcptasks.app..")
                .check(production);
    }
}
