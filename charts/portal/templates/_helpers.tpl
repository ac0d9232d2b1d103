{{/* Chart name, overridable. */}}
{{- define "portal.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped base name. Cut to 52 so "<base>-compliance" still fits a 63-char DNS label. */}}
{{- define "portal.fullname" -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- $full := "" -}}
{{- if .Values.fullnameOverride -}}
{{- $full = .Values.fullnameOverride -}}
{{- else if contains $name .Release.Name -}}
{{- $full = .Release.Name -}}
{{- else -}}
{{- $full = printf "%s-%s" .Release.Name $name -}}
{{- end -}}
{{- $full | trunc 52 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of a component's objects. Arguments: (list $ "identity"). */}}
{{- define "portal.componentName" -}}
{{- printf "%s-%s" (include "portal.fullname" (index . 0)) (index . 1) -}}
{{- end -}}

{{- define "portal.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "portal.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "portal.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "portal.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: ledgerline
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels that select one component's pods. Arguments: (list $ component). */}}
{{- define "portal.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "portal.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ (index . 1).name }}
{{- end -}}

{{/* Labels of a component's objects and pods; the tier is what NetworkPolicies select on. */}}
{{- define "portal.componentLabels" -}}
{{- $component := index . 1 -}}
{{ include "portal.labels" (index . 0) }}
app.kubernetes.io/component: {{ $component.name }}
portal.ledgerline.io/tier: {{ $component.tier }}
{{- end -}}

{{/* Labels matching every pod of one tier of this release. Arguments: (list $ tier). */}}
{{- define "portal.tierSelector" -}}
app.kubernetes.io/name: {{ include "portal.name" (index . 0) }}
app.kubernetes.io/instance: {{ (index . 0).Release.Name }}
portal.ledgerline.io/tier: {{ index . 1 }}
{{- end -}}

{{/* "repository:tag" of image.backend or image.frontend. Arguments: (list $ "backend"). */}}
{{- define "portal.image" -}}
{{- $root := index . 0 -}}
{{- $image := index $root.Values.image (index . 1) -}}
{{- printf "%s:%s" $image.repository (default $root.Chart.AppVersion $image.tag) -}}
{{- end -}}

{{/*
A service entry of .Values.services laid over .Values.serviceDefaults. Written out
instead of sprig's merge, which takes an explicit false or 0 in the entry for "unset"
and would let the defaults win. Nested objects merge one level deep.
Arguments: (list $ entry). Returns JSON.
*/}}
{{- define "portal.serviceValues" -}}
{{- $defaults := (index . 0).Values.serviceDefaults -}}
{{- $entry := index . 1 -}}
{{- $out := deepCopy $defaults -}}
{{- range $key, $value := $entry -}}
{{- if and (kindIs "map" $value) (kindIs "map" (get $defaults $key)) -}}
{{- $merged := deepCopy (get $defaults $key) -}}
{{- range $k, $v := $value -}}
{{- $_ := set $merged $k $v -}}
{{- end -}}
{{- $_ := set $out $key $merged -}}
{{- else -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/*
Every component the release runs, as JSON {"items": [...]}; each item has name, tier
(gateway | service | frontend), kind (backend | frontend), port, values and, for backend
ones, target. Templates range over this list so a new service is a values entry only.
*/}}
{{- define "portal.components" -}}
{{- $items := list (dict "name" "gateway" "tier" "gateway" "kind" "backend" "target" "gateway" "port" .Values.gateway.port "values" .Values.gateway) -}}
{{- range $name, $entry := .Values.services -}}
{{- if $entry.enabled -}}
{{- $values := include "portal.serviceValues" (list $ $entry) | fromJson -}}
{{- $items = append $items (dict "name" $name "tier" "service" "kind" "backend" "target" $name "port" $entry.port "values" $values) -}}
{{- end -}}
{{- end -}}
{{- if .Values.frontend.enabled -}}
{{- $items = append $items (dict "name" "frontend" "tier" "frontend" "kind" "frontend" "port" .Values.frontend.port "values" .Values.frontend) -}}
{{- end -}}
{{- toJson (dict "items" $items) -}}
{{- end -}}

{{/* Environment variable names for a service: identity -> IDENTITY. */}}
{{- define "portal.envPrefix" -}}
{{- . | upper | replace "-" "_" -}}
{{- end -}}

{{/* Whether the chart makes its own Secret: values given and no existing Secret named. */}}
{{- define "portal.ownSecret" -}}
{{- if not .Values.secrets.existingSecret -}}
{{- range $key, $value := .Values.secrets.values -}}
{{- if $value }}true{{ end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The release's ConfigMap and Secrets, as the backend Deployments read them (for the backup CronJob). */ -}}
{{- define "portal.backupEnvFrom" -}}
- configMapRef:
    name: {{ include "portal.componentName" (list . "env") }}
{{- if include "portal.ownSecret" . }}
- secretRef:
    name: {{ include "portal.componentName" (list . "env") }}
{{- end }}
{{- with .Values.secrets.existingSecret }}
- secretRef:
    name: {{ . }}
{{- end }}
{{- end -}}

{{- /* The backup's containers write only to their emptyDir. */ -}}
{{- define "portal.backupContainerSecurity" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}
