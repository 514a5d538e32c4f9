import { Component, EventEmitter, input, Input, output, Output } from '@angular/core';

export interface DataTableRow {
  id: string;
  cells: string[];
}

@Component({
  selector: 'adp-data-table',
  standalone: false,
  template: `
    <table class="adp-data-table">
      <adp-table-row *ngFor="let row of rows" [row]="row" (click)="rowClicked.emit(row)"></adp-table-row>
    </table>
  `,
})
export class DataTableComponent {
  @Input() rows: DataTableRow[] = [];
  @Input('pageSize') size = 10;
  @Output() rowClicked = new EventEmitter<DataTableRow>();
  dense = input<boolean>(false);
  sorted = output<string>();
}
