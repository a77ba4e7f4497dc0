#!/usr/bin/env bash
# The shipped alert rules and dashboard, checked by promtool (Debian's `prometheus` package): the
# rules' syntax, their unit tests, the `ops` profile's Prometheus configuration, and every query of
# the Grafana dashboard (each written out as a recording rule, so promtool parses it).
set -euo pipefail
cd "$(dirname "$0")/.."

promtool check rules ops/prometheus/alerts.yml
promtool test rules ops/prometheus/alerts.test.yml
promtool check config ops/prometheus/prometheus.yml

queries="$(mktemp --suffix=.yml)"
trap 'rm -f "$queries"' EXIT
node -e '
  const dashboard = require(process.argv[1]);
  const rules = dashboard.panels.flatMap((panel) => {
    if (!panel.targets?.length) throw new Error(`panel ${panel.id} (${panel.title}) has no query`);
    return panel.targets.map((target) => ({ record: `dashboard_panel_${panel.id}_${target.refId}`, expr: target.expr }));
  });
  // JSON is YAML: promtool reads it as a rule file.
  process.stdout.write(JSON.stringify({ groups: [{ name: "dashboard", rules }] }));
' "$PWD/ops/grafana/dashboards/merchant-payments.json" >"$queries"
promtool check rules "$queries"
