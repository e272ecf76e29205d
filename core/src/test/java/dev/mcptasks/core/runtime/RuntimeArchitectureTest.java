package dev.mcptasks.core.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The core (module {@code core}: the runtime and the task service) depends on ports and domain only, never on an
 * adapter nor on the composition root ({@code app}).
 */
class RuntimeArchitectureTest {
    private final JavaClasses core = importCore();

    /** Package names suffice for these rules: skip resolving every referenced class (which takes many seconds). */
    private static JavaClasses importCore() {
        ArchConfiguration configuration = ArchConfiguration.get();
        boolean resolve = configuration.resolveMissingDependenciesFromClassPath();
        configuration.setResolveMissingDependenciesFromClassPath(false);
        try {
            return new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.mcptasks.core.runtime", "dev.mcptasks.core.service");
        } finally {
            configuration.setResolveMissingDependenciesFromClassPath(resolve);
        }
    }

    @Test
    void coreImportsNoAdapterNorTheApplicationShell() {
        noClasses().that().resideInAnyPackage("dev.mcptasks.core.runtime..", "dev.mcptasks.core.service..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.mcptasks.adapters..",
                        "dev.mcptasks.mcp..", "dev.mcptasks.reference..", "dev.mcptasks.app..",
                        "com.google.inject..", "java.sql..", "org.apache.ibatis..", "io.netty..",
                        "com.fasterxml.jackson..")
                .check(core);
    }

    @Test
    void theServiceDoesNotDependOnTheRuntime() {
        noClasses().that().resideInAPackage("dev.mcptasks.core.service..")
                .should().dependOnClassesThat().resideInAPackage("dev.mcptasks.core.runtime..")
                .check(core);
    }
}
