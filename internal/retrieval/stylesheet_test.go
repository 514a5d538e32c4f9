package retrieval

import (
	"slices"
	"testing"
)

func TestAsksForStyle(t *testing.T) {
	for _, tc := range []struct {
		note, prompt string
		want         bool
	}{
		{note: "a CSS property", prompt: "fix: improve contrast on homepage credits text", want: true},
		{note: "layout words", prompt: "given height and scroll on absolute in mobile view", want: true},
		{note: "a stylesheet named", prompt: "Update selectize.less to match selectize.hc.css", want: true},
		{note: "behaviour", prompt: "show permission denied message when 403 on collection mapper"},
		{note: "a word that merely starts like one", prompt: "Fix colorless log lines in the logger"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := asksForStyle(Query{Prompt: tc.prompt}); got != tc.want {
				t.Errorf("asksForStyle(%q) = %v, want %v", tc.prompt, got, tc.want)
			}
		})
	}
}

// TestStylesheetsRankBehindTheCode: a dashboard component's stylesheet
// carries the component's name, the task's words as class names and a
// share of its code's score, but a task about what the dashboard shows
// changes its code and template; a task about its looks gets the
// stylesheet back at its whole score.
func TestStylesheetsRankBehindTheCode(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/app/dashboard/dashboard.component.ts": `import { Component } from '@angular/core';
import { OrdersService } from '../orders/orders.service';

@Component({ selector: 'app-dashboard', templateUrl: './dashboard.component.html', styleUrls: ['./dashboard.component.scss'] })
export class DashboardComponent {
  constructor(private orders: OrdersService) {}
  pendingCount() { return this.orders.pending().length; }
}
`,
		"src/app/dashboard/dashboard.component.html": `<section class="dashboard">
  <h2>{{ 'dashboard.pending' | translate }}</h2>
  <span class="dashboard-count">{{ pendingCount() }}</span>
</section>
`,
		"src/app/dashboard/dashboard.component.scss": `.dashboard {
  display: flex;
  .dashboard-count { height: 2rem; font-weight: bold; }
  .pending-orders .count { color: $pending-orders-count-color; }
  .pending-orders:empty { display: none; }
}
`,
		"src/app/orders/orders.service.ts": `import { Injectable } from '@angular/core';

@Injectable({ providedIn: 'root' })
export class OrdersService {
  pending(): Order[] { return []; }
}
`,
	})
	code := "src/app/dashboard/dashboard.component.ts"
	template := "src/app/dashboard/dashboard.component.html"
	scss := "src/app/dashboard/dashboard.component.scss"
	for _, tc := range []struct {
		note, prompt string
		behind       bool // the stylesheet ranks behind the component's code and template
	}{
		{note: "behaviour: the stylesheet goes behind the code", prompt: "show the pending orders count on the dashboard", behind: true},
		{note: "looks: the stylesheet keeps its place", prompt: "fix the dashboard count height"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := files(Rank(ix, Query{Prompt: tc.prompt}))
			at := slices.Index(got, scss)
			if at < 0 {
				t.Fatalf("ranks %v, want the stylesheet in the pack", got)
			}
			behind := at > slices.Index(got, code) && at > slices.Index(got, template)
			if behind != tc.behind {
				t.Errorf("ranks %v: stylesheet behind code and template = %v, want %v", got, behind, tc.behind)
			}
		})
	}
}
