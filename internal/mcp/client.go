package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpc/mcpc/internal/protocol"
)

// Client drives an mcpc server as an MCP client would: `mcpc demo` and the
// end-to-end tests use it against the real binary over real stdio.
type Client struct {
	session *sdk.ClientSession
}

// Dial starts cmd (an `mcpc serve` process) and completes the MCP handshake.
func Dial(ctx context.Context, cmd *exec.Cmd) (*Client, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "mcpc-client", Version: "dev"}, nil)
	s, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	return &Client{session: s}, nil
}

// Tools lists the server's tools.
func (c *Client) Tools(ctx context.Context) ([]*sdk.Tool, error) {
	res, err := c.session.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	return res.Tools, nil
}

// ProtocolVersion is the version the handshake negotiated.
func (c *Client) ProtocolVersion() string {
	if r := c.session.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

// Turn calls controller_turn and decodes the structured TurnResponse. It
// checks that the text content carries the same JSON.
func (c *Client) Turn(ctx context.Context, req any) (*protocol.TurnResponse, error) {
	res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: ToolName, Arguments: req})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("controller_turn returned isError")
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var resp protocol.TurnResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, err
	}
	if len(res.Content) != 1 {
		return nil, fmt.Errorf("want one text content, got %d", len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return nil, fmt.Errorf("content is %T, not text", res.Content[0])
	}
	var fromText protocol.TurnResponse
	if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
		return nil, fmt.Errorf("text content is not the TurnResponse JSON: %w", err)
	}
	return &resp, nil
}

// Close ends the session and the server process.
func (c *Client) Close() error { return c.session.Close() }

// Ping round-trips an MCP ping (transport latency without a turn).
func (c *Client) Ping(ctx context.Context) error { return c.session.Ping(ctx, nil) }
