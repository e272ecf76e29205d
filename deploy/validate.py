#!/usr/bin/env python3
"""Checks deploy/: every YAML file parses, and compose.yaml and k8s/ hold what docs/deploy.md promises (PostgreSQL, two
workers and the gateway; worker and gateway Deployments, the gateway Service, ConfigMap, Secret, probes on the admin
port, uid 10001), with the ConfigMap's configuration the same as deploy/config/mcp-tasks.json. No kubectl needed."""
import json
import pathlib
import sys

import yaml

here = pathlib.Path(__file__).resolve().parent
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


config = json.loads((here / "config" / "mcp-tasks.json").read_text())
check(config.get("admin", {}).get("host") == "0.0.0.0", "config: admin.host must be 0.0.0.0 in a container")

compose = yaml.safe_load((here / "compose.yaml").read_text())
services = compose.get("services", {})
check({"postgres", "worker-1", "worker-2", "gateway"} <= services.keys(), f"compose: services are {sorted(services)}")
for name in ("worker-1", "worker-2", "gateway"):
    service = services.get(name, {})
    check(service.get("command", [None])[0] == ("gateway" if name == "gateway" else "serve"), f"compose: {name} command")
    check(any("mcp-tasks.json:/etc/mcp-tasks/mcp-tasks.json" in v for v in service.get("volumes", [])),
          f"compose: {name} does not mount the configuration")
    check(service.get("environment", {}).get("MCP_TASKS_CONFIG") == "/etc/mcp-tasks/mcp-tasks.json",
          f"compose: {name} MCP_TASKS_CONFIG")

documents = []
for path in sorted((here / "k8s").glob("*.yaml")):
    documents += [(path.name, d) for d in yaml.safe_load_all(path.read_text()) if d]
by_kind = {}
for name, document in documents:
    by_kind.setdefault(document["kind"], []).append(document)
deployments = {d["metadata"]["name"]: d for d in by_kind.get("Deployment", [])}
check({"mcp-tasks-worker", "mcp-tasks-gateway"} <= deployments.keys(), f"k8s: deployments {sorted(deployments)}")
check(any(s["metadata"]["name"] == "mcp-tasks-gateway" for s in by_kind.get("Service", [])), "k8s: gateway Service")
check(len(by_kind.get("Secret", [])) == 1, "k8s: one Secret")
for name, deployment in deployments.items():
    pod = deployment["spec"]["template"]["spec"]
    check(pod["securityContext"].get("runAsUser") == 10001 and pod["securityContext"].get("runAsNonRoot"),
          f"k8s: {name} must run as uid 10001")
    check(deployment["spec"]["selector"]["matchLabels"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items(),
          f"k8s: {name} selector does not match its pods")
    for container in pod["containers"]:
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        check(ports.get("admin") == config["admin"]["port"], f"k8s: {name} admin port is not admin.port")
        check(container["livenessProbe"]["httpGet"]["path"] == "/healthz", f"k8s: {name} liveness probe")
        check(container["readinessProbe"]["httpGet"]["path"] == "/readyz", f"k8s: {name} readiness probe")
        check(container["envFrom"][0]["secretRef"]["name"] == "mcp-tasks", f"k8s: {name} secret")
gateway_args = deployments.get("mcp-tasks-gateway", {}).get("spec", {}).get("template", {}).get("spec", {}) \
    .get("containers", [{}])[0].get("args")
check(gateway_args and gateway_args[0] == "gateway", "k8s: the gateway Deployment runs `gateway`")
configmap = by_kind.get("ConfigMap", [{}])[0]
k8s_config = json.loads(configmap.get("data", {}).get("mcp-tasks.json", "{}"))
k8s_config["gateway"]["allowedHosts"] = config["gateway"]["allowedHosts"]
check(k8s_config == config, "k8s: the ConfigMap's configuration differs from deploy/config/mcp-tasks.json")
secret_keys = set(by_kind.get("Secret", [{}])[0].get("stringData", {}))
check({"MCP_TASKS_DB_PASSWORD", "GATEWAY_TOKEN_ALICE", "MCP_TASKS_ADMIN_TOKEN"} <= secret_keys, "k8s: Secret keys")

if problems:
    print("deploy: FAIL:\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"deploy: compose.yaml ({len(services)} services) and k8s/ ({len(documents)} documents: "
      + ", ".join(f"{len(v)} {k}" for k, v in sorted(by_kind.items())) + ") parse and hold together")
