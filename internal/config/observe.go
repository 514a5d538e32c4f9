package config

// Observe configures observability: the events every turn leaves in the
// shared store and the OPA-format decision log.
type Observe struct {
	// Disabled turns events and decision logs off. Default false.
	Disabled bool `json:"disabled"`
	// MaxEvents is how many observed events the store keeps; the oldest
	// go first. Default 100000.
	MaxEvents int `json:"maxEvents"`
	// QueueSize bounds the events waiting to be written; past it events are
	// dropped and counted, never waited for. Default 4096.
	QueueSize int `json:"queueSize"`
	// AnchorDepth is how many leading folders of a file name its domain
	// anchor (src/app/orders/x.ts at 2: src/app). Default 2.
	AnchorDepth int `json:"anchorDepth"`
	// DecisionLog writes each decision as an OPA decision-log event.
	DecisionLog DecisionLog `json:"decisionLog"`
}

// DecisionLog configures the OPA-format decision log.
type DecisionLog struct {
	// Disabled turns the decision log off. Default false.
	Disabled bool `json:"disabled"`
	// Path is the JSONL file, a path inside the workspace (written
	// through pathscope, never through a symlink). Default
	// .ai/tmp/decision-log.jsonl.
	Path string `json:"path"`
	// MaxBytes is the size past which the file is rotated to Path.1.
	// Default 64 MiB.
	MaxBytes int64 `json:"maxBytes"`
	// URL, when set, also receives the events as OPA's decision-log
	// service API does: batched POSTs of a gzip-compressed JSON array.
	URL string `json:"url"`
	// Mask lists JSON pointers (as OPA's mask rules: /input/args/content)
	// removed from each event before it is written anywhere.
	Mask []string `json:"mask"`
}

func (o *Observe) defaults() {
	setInt(&o.MaxEvents, 100000)
	setInt(&o.QueueSize, 4096)
	setInt(&o.AnchorDepth, 2)
	if o.DecisionLog.Path == "" {
		o.DecisionLog.Path = ".ai/tmp/decision-log.jsonl"
	}
	setInt64(&o.DecisionLog.MaxBytes, 64<<20)
}
