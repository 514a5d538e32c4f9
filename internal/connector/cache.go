package connector

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Files is where the cache keeps its entries: the workspace's resolver
// (pathscope), which never follows a link planted under .ai/tmp.
type Files interface {
	ReadFile(name string, maxBytes int64) ([]byte, error)
	WriteFileAtomic(name string, data []byte, mkdirParents bool) error
}

// Cache keeps answers under Dir, one file per request: a JSON header line
// (URL target, when stored, ETag) and the body. An entry is fresh for TTL;
// after that, one with an ETag is revalidated (If-None-Match, 304).
type Cache struct {
	Files   Files
	Dir     string        // e.g. .ai/tmp/connectors
	TTL     time.Duration // 0: every use revalidates
	MaxSize int64         // largest entry read back; default 17 MiB
	Now     func() time.Time
}

type entryHead struct {
	Target   string    `json:"target"`
	StoredAt time.Time `json:"storedAt"`
	ETag     string    `json:"etag,omitempty"`
}

type entry struct {
	entryHead
	ttl  time.Duration
	body []byte
}

func (e *entry) fresh(now time.Time) bool { return e.ttl > 0 && now.Sub(e.StoredAt) < e.ttl }

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// name is the entry's file: a hash of the source, the URL and a hash of the
// token, so another token never reads an answer fetched with this one and
// nothing in the name or the file reveals either.
func (c *Cache) name(req Request) string {
	tok := sha256.Sum256([]byte(req.Token))
	sum := sha256.Sum256([]byte(req.Source + "\n" + req.URL + "\n" + hex.EncodeToString(tok[:])))
	return c.Dir + "/" + req.Source + "-" + hex.EncodeToString(sum[:16]) + ".cache"
}

func (c *Cache) lookup(req Request) *entry {
	max := c.MaxSize
	if max <= 0 {
		max = 17 << 20
	}
	raw, err := c.Files.ReadFile(c.name(req), max)
	if err != nil {
		return nil
	}
	head, body, ok := bytes.Cut(raw, []byte("\n"))
	if !ok {
		return nil
	}
	e := &entry{ttl: c.TTL, body: body}
	if json.Unmarshal(head, &e.entryHead) != nil || e.StoredAt.IsZero() {
		return nil // a damaged entry is a miss
	}
	return e
}

// store writes an entry; a failure only costs the next fetch.
func (c *Cache) store(req Request, body []byte, etag string) {
	head, _ := json.Marshal(entryHead{Target: traceTarget(req.URL), StoredAt: c.now().UTC(), ETag: etag})
	data := make([]byte, 0, len(head)+1+len(body))
	data = append(append(append(data, head...), '\n'), body...)
	_ = c.Files.WriteFileAtomic(c.name(req), data, true)
}
