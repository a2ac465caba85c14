{{/* Names and labels shared by every template. */}}
{{- define "svc.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "svc.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "svc.selector" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "svc.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "svc.secretName" -}}
{{- .Values.existingSecret | default (printf "%s-secrets" (include "svc.fullname" .)) -}}
{{- end -}}

{{/*
A setting's value for a container's env. YAML numbers reach templates as float64, which print as
1e+06 from a million on (SVC_BODY_LIMIT_BYTES: 1048576 would become "1.048576e+06" and fail the
config loader): whole numbers print as integers. Maps and lists (SVC_PLANS, SVC_FEEDS) print as JSON.
*/}}
{{- define "svc.envValue" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) -}}
{{- int64 . | quote -}}
{{- else if or (kindIs "map" .) (kindIs "slice" .) -}}
{{- toJson . | quote -}}
{{- else -}}
{{- . | quote -}}
{{- end -}}
{{- end -}}

{{- define "svc.envFrom" -}}
- secretRef:
    name: {{ include "svc.secretName" . }}
{{- end -}}
