// Package mcp is mcpc's protocol plumbing: it exposes the one tool,
// controller_turn, over MCP (stdio by default, streamable HTTP as an option)
// with the official Go SDK, and hands each call's raw arguments to the
// controller. Denials are normal tool results; only protocol faults and
// store failures become JSON-RPC errors.
package mcp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/protocol"
)

// ToolName is the single tool mcpc serves.
const ToolName = "controller_turn"

// Turner runs one turn; the controller implements it.
type Turner interface {
	Turn(ctx context.Context, raw json.RawMessage) (*protocol.TurnResponse, error)
}

// AnswerCharger is told the encoded size of each answer sent, so the
// answer is charged to the turn's budget (the controller implements it).
type AnswerCharger interface {
	ChargeAnswer(ctx context.Context, resp *protocol.TurnResponse, bytes int)
}

// Options configures NewServer.
type Options struct {
	// Version is reported in serverInfo. Default "dev".
	Version string
	// Log receives turns that panicked, with their stacks. Default: a
	// disabled logger.
	Log zerolog.Logger
}

const toolDescription = `The only tool of mcpc, the policy controller for this repository. Every action is a verb: start with {"verb":"initialize_work","originalPrompt":"<the task>","args":{"lexemes":[...]}}, then pass workId and agentId back on every call. Each response lists the verbs the current state offers (capabilities, verbDescriptions), the context pack you may read, your progress and budget; a denied call explains itself in denials and suggestedAction.`

// inputSchema is the tool's advertised schema. It is deliberately shallow:
// the server validates against the published schemas/turn-request.schema.json
// and answers a shape error as a structured INVALID_ARGS denial, which an
// agent can read and correct, instead of a client-side rejection.
var inputSchema = json.RawMessage(`{
  "type": "object",
  "required": ["verb"],
  "properties": {
    "verb": {"type": "string", "description": "initialize_work first; then one of the response's capabilities."},
    "runSessionId": {"type": "string"},
    "workId": {"type": "string", "description": "The work's id from initialize_work; sub-agents pass the same workId."},
    "agentId": {"type": "string", "description": "Your agentId from the first response; omit it to join a work as a new sub-agent."},
    "originalPrompt": {"type": "string", "description": "The user's task, on initialize_work."},
    "args": {"type": "object", "description": "Verb arguments; see verbDescriptions."},
    "traceMeta": {"type": "object"}
  }
}`)

// NewServer builds the MCP server with controller_turn registered.
func NewServer(t Turner, opts Options) *sdk.Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "mcpc", Version: opts.Version}, &sdk.ServerOptions{
		SupportedProtocolVersions: protocolVersions(),
	})
	s.AddReceivingMiddleware(encodeTurnResults)
	charger, _ := t.(AnswerCharger)
	t = newWorkerTurner(t, opts.Log)
	s.AddTool(&sdk.Tool{
		Name:        ToolName,
		Description: toolDescription,
		InputSchema: inputSchema,
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		inflight.Add(1)
		defer inflight.Add(-1)
		// Budgets are kept per MCP session: the HTTP session id the server
		// assigned, or (stdio, no id) the process.
		if req.Session != nil {
			if id := req.Session.ID(); id != "" {
				ctx = protocol.WithSession(ctx, id)
			}
		}
		var progress *sessionProgress
		if req.Session != nil && req.Params.GetProgressToken() != nil {
			progress = &sessionProgress{ss: req.Session, token: req.Params.GetProgressToken()}
			ctx = controller.WithProgress(ctx, progress)
		}
		resp, err := t.Turn(ctx, args)
		if err != nil {
			return nil, err
		}
		// The turn ran to its end whatever happened to the request (see
		// workerTurner); so do its last notifications.
		if progress != nil {
			progress.finish(context.WithoutCancel(ctx), resp)
		}
		if req.Session != nil {
			logTurn(context.WithoutCancel(ctx), req.Session, verbOf(args), resp)
		}
		text, err := json.Marshal(resp)
		if err != nil {
			return nil, err
		}
		if charger != nil {
			charger.ChargeAnswer(ctx, resp, len(text))
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: string(text)}},
			StructuredContent: json.RawMessage(text),
		}, nil
	})
	return s
}

// NewestProtocol is the newest MCP version mcpc speaks (ARCHITECTURE §5);
// the SDK's drafts beyond it are not offered.
const NewestProtocol = "2025-11-25"

func protocolVersions() []string {
	var out []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v <= NewestProtocol { // ISO dates compare as strings
			out = append(out, v)
		}
	}
	return out
}

// inflight counts tool calls being handled, so stdio can answer them all
// before it reports end of input.
var inflight atomic.Int64

// ServeStdio serves newline-delimited JSON-RPC on stdin/stdout until the
// client disconnects or ctx ends. A client that writes its requests and
// closes stdin at once (a one-shot pipe) still gets every answer. The
// transport is lineTransport (stdio.go), the SDK's IOTransport made cheaper
// per message, reading stdin through the poller where it can
// (pollableStdin); stdout is never closed.
func ServeStdio(ctx context.Context, s *sdk.Server) error {
	stdin, restore := pollableStdin()
	defer restore()
	return s.Run(ctx, &lineTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{os.Stdout}, AnswerBeforeEOF: true})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
