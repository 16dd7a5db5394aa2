{{- define "forge-mcp.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "forge-mcp.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "forge-mcp.selector" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "forge-mcp.storeSelector" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: store
{{- end -}}

{{- define "forge-mcp.secretName" -}}
{{- .Values.secret.existingSecret | default (include "forge-mcp.fullname" .) -}}
{{- end -}}

{{- define "forge-mcp.storeHost" -}}
{{- printf "%s-valkey" (include "forge-mcp.fullname" .) -}}
{{- end -}}

{{/* A random base64url value of 32 bytes, or the one the release's Secret already holds. */}}
{{- define "forge-mcp.kept" -}}
{{- $ctx := index . 0 -}}{{- $key := index . 1 -}}{{- $given := index . 2 -}}
{{- if $given -}}
{{- $given -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" $ctx.Release.Namespace (include "forge-mcp.fullname" $ctx) -}}
{{- if and $existing (hasKey $existing.data $key) -}}
{{- index $existing.data $key | b64dec -}}
{{- else -}}
{{- randBytes 32 | replace "+" "-" | replace "/" "_" | trimSuffix "=" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The drain: requests in flight get FORGE_REQUEST_TIMEOUT_MS plus a second (docs/operating.md). */}}
{{- define "forge-mcp.gracePeriod" -}}
{{- add (div .Values.forgeRequestTimeoutMs 1000) 1 15 -}}
{{- end -}}
