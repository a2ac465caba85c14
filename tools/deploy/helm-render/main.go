// Command helm-render is a small offline stand-in for `helm template`, used to render
// deploy/helm/svc where no helm binary is available (see docs/operations.md, decision 0101).
//
// It is NOT helm. It reproduces the parts of Helm 3's rendering that a single chart without
// dependencies uses, with the same libraries Helm uses:
//
//   - templates: Go's text/template with option missingkey=zero, every file under templates/
//     parsed into one template set (named templates via define/include/template), files whose
//     name starts with "_" not rendered, "<no value>" removed from the output, as in
//     helm.sh/helm/v3/pkg/engine;
//   - functions: sprig v3's TxtFuncMap less env and expandenv, plus Helm's include, tpl,
//     required, fail (message wrapped as "execution error at (file:line:col): msg"), toYaml,
//     fromYaml, fromYamlArray, toJson, fromJson, fromJsonArray, lookup (returns an empty map,
//     as in `helm template`) and getHostByName (returns "", as Helm without --enable-dns);
//   - objects: .Values, .Chart (Chart.yaml's fields: .Chart.Name, .Chart.Version,
//     .Chart.AppVersion, ...), .Release (Name, Namespace, Revision 1, IsInstall/IsUpgrade,
//     Service "Helm"), .Capabilities (KubeVersion, APIVersions.Has, HelmVersion),
//     .Template (Name, BasePath), .Files (Get, GetBytes, Lines over the chart's other files);
//   - values: values.yaml, then each --values file, then --set/--set-string, coalesced as Helm
//     does (maps merged key by key, a null removes the key); YAML read with sigs.k8s.io/yaml, so
//     numbers are float64 as in Helm;
//   - Chart.yaml checks: apiVersion v1/v2, name, SemVer version, type, and kubeVersion against
//     --kube-version (default v1.32.0);
//   - output: each rendered file split into documents at "---" lines, empty ones dropped, each
//     document's head (apiVersion, kind, metadata.name, metadata.annotations as strings) parsed
//     as Helm's release sorter does (a YAML error fails the render), hooks told apart by their
//     helm.sh/hook annotation (unknown hook events dropped with a warning, as Helm does), and
//     printed like `helm template`: "---\n# Source: <chart>/templates/<file>\n<document>",
//     ordinary manifests in Helm's install order of kinds, then hooks by weight.
//
// Not supported (fails or is absent): subcharts and dependencies, values.schema.json, library
// charts, toToml, crds/, NOTES.txt output, .Files.Glob/AsConfig/AsSecrets, --set list syntax
// ({a,b}) and indices (a[0]), --set-file/--set-json, global values, the cluster (no lookup
// results, no --validate against a server), and post-renderers.
//
// Build and run offline with Debian 12's packages (golang-go, golang-github-masterminds-sprig-dev,
// golang-k8s-sigs-yaml-dev):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o /tmp/helm-render ./tools/deploy/helm-render
//	/tmp/helm-render --name svc --set existingSecret=svc-secrets deploy/helm/svc
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	semver "github.com/Masterminds/semver" // semver v3 (Debian keeps it without the /v3 suffix)
	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

// Metadata is Chart.yaml (helm.sh/helm/v3/pkg/chart.Metadata, the fields templates read).
type Metadata struct {
	APIVersion   string            `json:"apiVersion,omitempty"`
	Name         string            `json:"name,omitempty"`
	Home         string            `json:"home,omitempty"`
	Sources      []string          `json:"sources,omitempty"`
	Version      string            `json:"version,omitempty"`
	Description  string            `json:"description,omitempty"`
	Keywords     []string          `json:"keywords,omitempty"`
	Icon         string            `json:"icon,omitempty"`
	Condition    string            `json:"condition,omitempty"`
	Tags         string            `json:"tags,omitempty"`
	AppVersion   string            `json:"appVersion,omitempty"`
	Deprecated   bool              `json:"deprecated,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	KubeVersion  string            `json:"kubeVersion,omitempty"`
	Type         string            `json:"type,omitempty"`
	Dependencies []interface{}     `json:"dependencies,omitempty"`
}

// KubeVersion is .Capabilities.KubeVersion.
type KubeVersion struct {
	Version string
	Major   string
	Minor   string
}

func (k KubeVersion) String() string     { return k.Version }
func (k KubeVersion) GitVersion() string { return k.Version }

// VersionSet is .Capabilities.APIVersions.
type VersionSet []string

// Has tells whether an API version ("apps/v1") or a kind in one ("apps/v1/Deployment") is known.
func (v VersionSet) Has(apiVersion string) bool {
	for _, x := range v {
		if x == apiVersion {
			return true
		}
	}
	return false
}

// Capabilities is .Capabilities.
type Capabilities struct {
	KubeVersion KubeVersion
	APIVersions VersionSet
	HelmVersion map[string]string
}

// Files is .Files: the chart's files outside templates/ (and not Chart.yaml or values.yaml).
type Files map[string][]byte

func (f Files) GetBytes(name string) []byte { return f[name] }
func (f Files) Get(name string) string      { return string(f[name]) }
func (f Files) Lines(name string) []string {
	if f[name] == nil {
		return []string{}
	}
	return strings.Split(string(f[name]), "\n")
}

// The API versions of a Kubernetes 1.32 cluster that charts commonly test with .Capabilities.APIVersions.Has.
var defaultAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "autoscaling/v1", "autoscaling/v2", "policy/v1",
	"networking.k8s.io/v1", "rbac.authorization.k8s.io/v1", "storage.k8s.io/v1",
	"apiextensions.k8s.io/v1", "admissionregistration.k8s.io/v1", "coordination.k8s.io/v1",
	"discovery.k8s.io/v1", "events.k8s.io/v1", "scheduling.k8s.io/v1", "node.k8s.io/v1",
	"certificates.k8s.io/v1", "apiregistration.k8s.io/v1", "flowcontrol.apiserver.k8s.io/v1",
}

// Helm's releaseutil.InstallOrder: the order of kinds in `helm template` output.
var installOrder = []string{
	"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
	"PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass",
	"PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
	"ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList",
	"RoleBinding", "RoleBindingList", "Service", "DaemonSet", "Pod", "ReplicationController",
	"ReplicaSet", "Deployment", "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob",
	"IngressClass", "Ingress", "APIService",
}

var hookEvents = map[string]bool{
	"pre-install": true, "post-install": true, "pre-delete": true, "post-delete": true,
	"pre-upgrade": true, "post-upgrade": true, "pre-rollback": true, "post-rollback": true,
	"test": true, "test-success": true,
}

const (
	warnStart = "HELM_ERR_START"
	warnEnd   = "HELM_ERR_END"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var valueFiles, sets, setStrings, apiVersions multiFlag
	name := flag.String("name", "release-name", "release name (.Release.Name)")
	namespace := flag.String("namespace", "default", "release namespace (.Release.Namespace)")
	kubeVersion := flag.String("kube-version", "v1.32.0", "Kubernetes version for .Capabilities and Chart.yaml's kubeVersion")
	isUpgrade := flag.Bool("is-upgrade", false, "render as an upgrade (.Release.IsUpgrade)")
	flag.Var(&valueFiles, "values", "a values file merged over values.yaml (repeatable)")
	flag.Var(&valueFiles, "f", "short for --values")
	flag.Var(&sets, "set", "key.path=value[,key.path=value] with Helm's typing (repeatable)")
	flag.Var(&setStrings, "set-string", "key.path=value[,...] kept as strings (repeatable)")
	flag.Var(&apiVersions, "api-versions", "extra API version for .Capabilities.APIVersions (repeatable)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: helm-render [--name N] [--namespace NS] [-f values.yaml]... [--set k=v]... [--set-string k=v]... CHART_DIR")
		os.Exit(2)
	}
	out, err := render(flag.Arg(0), options{
		name: *name, namespace: *namespace, kubeVersion: *kubeVersion, isUpgrade: *isUpgrade,
		valueFiles: valueFiles, sets: sets, setStrings: setStrings, apiVersions: apiVersions,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}

type options struct {
	name, namespace, kubeVersion string
	isUpgrade                    bool
	valueFiles, sets, setStrings []string
	apiVersions                  []string
}

func render(dir string, o options) (string, error) {
	meta, err := loadChart(dir)
	if err != nil {
		return "", err
	}
	kv, err := semver.NewVersion(o.kubeVersion)
	if err != nil {
		return "", fmt.Errorf("invalid --kube-version %q: %v", o.kubeVersion, err)
	}
	if meta.KubeVersion != "" {
		c, err := semver.NewConstraint(meta.KubeVersion)
		if err != nil {
			return "", fmt.Errorf("chart.metadata.kubeVersion %q is invalid: %v", meta.KubeVersion, err)
		}
		if !c.Check(kv) {
			return "", fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", meta.KubeVersion, o.kubeVersion)
		}
	}

	values, err := loadValues(dir, o)
	if err != nil {
		return "", err
	}
	templates, files, err := loadFiles(dir, meta.Name)
	if err != nil {
		return "", err
	}
	top := map[string]interface{}{
		"Values": values,
		"Chart":  meta,
		"Release": map[string]interface{}{
			"Name": o.name, "Namespace": o.namespace, "IsUpgrade": o.isUpgrade, "IsInstall": !o.isUpgrade,
			"Revision": 1, "Service": "Helm",
		},
		"Capabilities": &Capabilities{
			KubeVersion: KubeVersion{Version: "v" + kv.String(), Major: strconv.FormatUint(kv.Major(), 10), Minor: strconv.FormatUint(kv.Minor(), 10)},
			APIVersions: append(VersionSet(defaultAPIVersions), o.apiVersions...),
			HelmVersion: map[string]string{"version": "v3 (helm-render stand-in)"},
		},
		"Files": files,
	}
	rendered, err := renderTemplates(templates, top, meta.Name+"/templates")
	if err != nil {
		return "", err
	}
	return assemble(rendered)
}

func loadChart(dir string) (*Metadata, error) {
	data, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	meta := &Metadata{}
	if err := yaml.Unmarshal(data, meta); err != nil {
		return nil, fmt.Errorf("cannot load Chart.yaml: %v", err)
	}
	switch {
	case meta.APIVersion != "v1" && meta.APIVersion != "v2":
		return nil, fmt.Errorf("chart.metadata.apiVersion %q is invalid", meta.APIVersion)
	case meta.Name == "":
		return nil, errors.New("chart.metadata.name is required")
	case meta.Type != "" && meta.Type != "application" && meta.Type != "library":
		return nil, fmt.Errorf("chart.metadata.type %q is invalid", meta.Type)
	case meta.Type == "library":
		return nil, errors.New("library charts are not supported by helm-render")
	case len(meta.Dependencies) > 0:
		return nil, errors.New("chart dependencies are not supported by helm-render")
	}
	if _, err := semver.StrictNewVersion(meta.Version); err != nil {
		return nil, fmt.Errorf("chart.metadata.version %q is invalid", meta.Version)
	}
	if _, err := os.Stat(filepath.Join(dir, "values.schema.json")); err == nil {
		return nil, errors.New("values.schema.json is not supported by helm-render")
	}
	if _, err := os.Stat(filepath.Join(dir, "charts")); err == nil {
		return nil, errors.New("subcharts (charts/) are not supported by helm-render")
	}
	return meta, nil
}

func readYAMLMap(file string) (map[string]interface{}, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	m := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("cannot parse %s: %v", file, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m, nil
}

// loadValues: the user's values (files merged in order, then --set, then --set-string, as
// Helm's values.Options.MergeValues), coalesced over the chart's values.yaml.
func loadValues(dir string, o options) (map[string]interface{}, error) {
	defaults := map[string]interface{}{}
	if _, err := os.Stat(filepath.Join(dir, "values.yaml")); err == nil {
		d, err := readYAMLMap(filepath.Join(dir, "values.yaml"))
		if err != nil {
			return nil, err
		}
		defaults = d
	}
	user := map[string]interface{}{}
	for _, f := range o.valueFiles {
		m, err := readYAMLMap(f)
		if err != nil {
			return nil, err
		}
		user = mergeMaps(user, m)
	}
	for _, s := range o.sets {
		if err := parseSet(s, user, false); err != nil {
			return nil, err
		}
	}
	for _, s := range o.setStrings {
		if err := parseSet(s, user, true); err != nil {
			return nil, err
		}
	}
	return coalesce(user, defaults), nil
}

// mergeMaps is Helm's cli/values mergeMaps: b over a, maps merged recursively.
func mergeMaps(a, b map[string]interface{}) map[string]interface{} {
	out := make(map[string]interface{}, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if vm, ok := v.(map[string]interface{}); ok {
			if bv, ok := out[k].(map[string]interface{}); ok {
				out[k] = mergeMaps(bv, vm)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// coalesce is Helm's chartutil.CoalesceValues for one chart (coalesceTablesFullKey): the user's
// values over the defaults, tables merged key by key, a user null deleting a default, a table and
// a non-table never merged (the user's value kept, with Helm's warning).
func coalesce(user, defaults map[string]interface{}) map[string]interface{} {
	return coalesceTables(mergeMaps(map[string]interface{}{}, user), defaults, "")
}

func coalesceTables(dst, src map[string]interface{}, prefix string) map[string]interface{} {
	for key, val := range src {
		fullkey := strings.TrimPrefix(prefix+"."+key, ".")
		dv, ok := dst[key]
		_, valTable := val.(map[string]interface{})
		dvTable, dvIsTable := dv.(map[string]interface{})
		switch {
		case ok && dv == nil:
			delete(dst, key)
		case !ok:
			dst[key] = val
		case valTable && dvIsTable:
			dst[key] = coalesceTables(mergeMaps(map[string]interface{}{}, dvTable), val.(map[string]interface{}), fullkey)
		case valTable:
			fmt.Fprintf(os.Stderr, "warning: cannot overwrite table with non table for %s (%v)\n", fullkey, val)
		case dvIsTable && val != nil:
			fmt.Fprintf(os.Stderr, "warning: destination for %s is a table. Ignoring non-table value (%v)\n", fullkey, val)
		}
	}
	return dst
}

// parseSet reads one --set argument: comma-separated key.path=value pairs ("\," escapes a comma),
// typed as Helm's strvals (true/false/null, integers not starting with 0) unless asString.
func parseSet(arg string, into map[string]interface{}, asString bool) error {
	var pairs []string
	var cur strings.Builder
	for i := 0; i < len(arg); i++ {
		switch {
		case arg[i] == '\\' && i+1 < len(arg):
			i++
			cur.WriteByte(arg[i])
		case arg[i] == ',':
			pairs = append(pairs, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(arg[i])
		}
	}
	pairs = append(pairs, cur.String())
	for _, p := range pairs {
		eq := strings.IndexByte(p, '=')
		if eq <= 0 {
			return fmt.Errorf("--set %q: key %q has no value", arg, p)
		}
		key, raw := p[:eq], p[eq+1:]
		if strings.ContainsAny(key, "[]") || strings.HasPrefix(raw, "{") {
			return fmt.Errorf("--set %q: list syntax is not supported by helm-render", arg)
		}
		var val interface{} = raw
		if !asString {
			val = typedVal(raw)
		}
		parts := strings.Split(key, ".")
		m := into
		for _, k := range parts[:len(parts)-1] {
			next, ok := m[k].(map[string]interface{})
			if !ok {
				next = map[string]interface{}{}
				m[k] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = val
	}
	return nil
}

func typedVal(val string) interface{} {
	switch {
	case strings.EqualFold(val, "true"):
		return true
	case strings.EqualFold(val, "false"):
		return false
	case strings.EqualFold(val, "null"):
		return nil
	case val == "0":
		return int64(0)
	}
	if val != "" && val[0] != '0' {
		if iv, err := strconv.ParseInt(val, 10, 64); err == nil {
			return iv
		}
	}
	return val
}

// loadFiles returns templates/** keyed "<chart>/templates/<path>" and the other files for .Files.
func loadFiles(dir, chartName string) (map[string]string, Files, error) {
	templates := map[string]string{}
	files := Files{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasPrefix(rel, "templates/"):
			templates[chartName+"/"+rel] = string(data)
		case rel != "Chart.yaml" && rel != "values.yaml":
			files[rel] = data
		}
		return nil
	})
	return templates, files, err
}

func toYAML(v interface{}) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func fromYAML(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func fromYAMLArray(s string) []interface{} {
	a := []interface{}{}
	if err := yaml.Unmarshal([]byte(s), &a); err != nil {
		a = []interface{}{err.Error()}
	}
	return a
}

func toJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func fromJSON(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func fromJSONArray(s string) []interface{} {
	a := []interface{}{}
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		a = []interface{}{err.Error()}
	}
	return a
}

// renderTemplates is Helm's engine.render for one chart: one template set, every non-partial
// file executed with the top-level object plus .Template.
func renderTemplates(templates map[string]string, top map[string]interface{}, basePath string) (map[string]string, error) {
	t := template.New("gotpl").Option("missingkey=zero")
	funcs := template.FuncMap(sprig.TxtFuncMap())
	delete(funcs, "env")
	delete(funcs, "expandenv")
	included := map[string]int{}
	funcs["include"] = func(name string, data interface{}) (string, error) {
		if included[name] > 1000 {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		included[name]++
		defer func() { included[name]-- }()
		var buf strings.Builder
		err := t.ExecuteTemplate(&buf, name, data)
		return buf.String(), err
	}
	funcs["tpl"] = func(text string, vals map[string]interface{}) (string, error) {
		clone, err := t.Clone()
		if err != nil {
			return "", err
		}
		name := "tpl"
		if tm, ok := vals["Template"].(map[string]interface{}); ok {
			if n, ok := tm["Name"].(string); ok {
				name = n
			}
		}
		tt, err := clone.New(name).Parse(text)
		if err != nil {
			return "", fmt.Errorf("cannot parse template %q: %v", text, err)
		}
		var buf strings.Builder
		if err := tt.Execute(&buf, vals); err != nil {
			return "", fmt.Errorf("error during tpl function execution for %q: %v", text, err)
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	funcs["required"] = func(warn string, val interface{}) (interface{}, error) {
		if val == nil {
			return val, errors.New(warnStart + warn + warnEnd)
		}
		if s, ok := val.(string); ok && s == "" {
			return val, errors.New(warnStart + warn + warnEnd)
		}
		return val, nil
	}
	funcs["fail"] = func(msg string) (string, error) { return "", errors.New(warnStart + msg + warnEnd) }
	funcs["lookup"] = func(string, string, string, string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil
	}
	// As Helm without --enable-dns.
	funcs["getHostByName"] = func(string) string { return "" }
	for k, v := range map[string]interface{}{
		"toYaml": toYAML, "fromYaml": fromYAML, "fromYamlArray": fromYAMLArray,
		"toJson": toJSON, "fromJson": fromJSON, "fromJsonArray": fromJSONArray,
	} {
		funcs[k] = v
	}
	t.Funcs(funcs)

	names := make([]string, 0, len(templates))
	for n := range templates {
		names = append(names, n)
	}
	// Helm's sortTemplates: deeper paths first, then by name (reverse), so later defines win alike.
	sort.Slice(names, func(i, j int) bool {
		di, dj := strings.Count(names[i], "/"), strings.Count(names[j], "/")
		if di != dj {
			return di > dj
		}
		return names[i] > names[j]
	})
	for _, n := range names {
		if _, err := t.New(n).Parse(templates[n]); err != nil {
			return nil, fmt.Errorf("parse error at (%s): %v", n, strings.TrimPrefix(err.Error(), "template: "))
		}
	}
	out := map[string]string{}
	for _, n := range names {
		if strings.HasPrefix(path.Base(n), "_") || strings.HasSuffix(n, "NOTES.txt") {
			continue
		}
		vals := map[string]interface{}{}
		for k, v := range top {
			vals[k] = v
		}
		vals["Template"] = map[string]interface{}{"Name": n, "BasePath": basePath}
		var buf strings.Builder
		if err := t.ExecuteTemplate(&buf, n, vals); err != nil {
			return nil, cleanupExecError(n, err)
		}
		out[n] = strings.ReplaceAll(buf.String(), "<no value>", "")
	}
	return out, nil
}

var execErrLocation = regexp.MustCompile(`^template: (\S+:\d+:\d+): `)

// cleanupExecError is Helm's: a fail/required message becomes "execution error at (file:line:col): msg".
func cleanupExecError(filename string, err error) error {
	msg := err.Error()
	s, e := strings.Index(msg, warnStart), strings.Index(msg, warnEnd)
	if s < 0 || e < s {
		return err
	}
	loc := filename
	if m := execErrLocation.FindStringSubmatch(msg); m != nil {
		loc = m[1]
	}
	return fmt.Errorf("execution error at (%s): %s", loc, msg[s+len(warnStart):e])
}

// head is the part of a document Helm's release sorter reads (releaseutil.SimpleHead).
type head struct {
	Version  string `json:"apiVersion"`
	Kind     string `json:"kind,omitempty"`
	Metadata *struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata,omitempty"`
}

type manifest struct {
	source, content string
	head            head
	weight          int
	order           int
}

var docSep = regexp.MustCompile(`(?:^|\s*\n)---\s*`)

// assemble splits, parses and orders the rendered files as Helm's releaseutil.SortManifests and
// prints them as `helm template` does.
func assemble(rendered map[string]string) (string, error) {
	files := make([]string, 0, len(rendered))
	for n := range rendered {
		files = append(files, n)
	}
	sort.Strings(files)
	var generic, hooks []manifest
	order := 0
	for _, f := range files {
		if strings.TrimSpace(rendered[f]) == "" {
			continue
		}
		for _, doc := range docSep.Split(rendered[f], -1) {
			if strings.TrimSpace(doc) == "" {
				continue
			}
			doc = strings.TrimSpace(doc)
			var h head
			if err := yaml.Unmarshal([]byte(doc), &h); err != nil {
				return "", fmt.Errorf("YAML parse error on %s: %v", f, err)
			}
			order++
			m := manifest{source: f, content: doc, head: h, order: order}
			hookTypes := ""
			if h.Metadata != nil {
				hookTypes = h.Metadata.Annotations["helm.sh/hook"]
			}
			if hookTypes == "" {
				generic = append(generic, m)
				continue
			}
			known := true
			for _, ev := range strings.Split(hookTypes, ",") {
				if !hookEvents[strings.ToLower(strings.TrimSpace(ev))] {
					known = false
				}
			}
			if !known {
				fmt.Fprintf(os.Stderr, "info: skipping unknown hook: %q\n", hookTypes)
				continue
			}
			if w, err := strconv.Atoi(h.Metadata.Annotations["helm.sh/hook-weight"]); err == nil {
				m.weight = w
			}
			hooks = append(hooks, m)
		}
	}
	rank := func(kind string) int {
		for i, k := range installOrder {
			if k == kind {
				return i
			}
		}
		return len(installOrder)
	}
	sort.SliceStable(generic, func(i, j int) bool {
		ri, rj := rank(generic[i].head.Kind), rank(generic[j].head.Kind)
		if ri != rj {
			return ri < rj
		}
		if ri == len(installOrder) && generic[i].head.Kind != generic[j].head.Kind {
			return generic[i].head.Kind < generic[j].head.Kind
		}
		return generic[i].order < generic[j].order
	})
	sort.SliceStable(hooks, func(i, j int) bool {
		if hooks[i].weight != hooks[j].weight {
			return hooks[i].weight < hooks[j].weight
		}
		return rank(hooks[i].head.Kind) < rank(hooks[j].head.Kind)
	})
	var b bytes.Buffer
	for _, m := range append(generic, hooks...) {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", m.source, m.content)
	}
	return b.String(), nil
}
