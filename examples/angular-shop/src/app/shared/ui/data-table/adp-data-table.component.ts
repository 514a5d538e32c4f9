import { Component, EventEmitter, Input, Output } from '@angular/core';

/** Legacy table. Its replacement is sdf-table. */
@Component({
  selector: 'adp-data-table',
  standalone: true,
  template: `<table class="adp-table"><tr *ngFor="let row of rows" (click)="rowClicked.emit(row)"></tr></table>`,
})
export class AdpDataTableComponent {
  @Input() rows: unknown[] = [];
  @Input() columns: string[] = [];
  @Output() rowClicked = new EventEmitter<unknown>();
}
