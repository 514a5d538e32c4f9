import { Component } from '@angular/core';
import { ICellRendererAngularComp } from 'ag-grid-angular';

@Component({
  selector: 'app-status-cell',
  template: '<sdf-badge [label]="value"></sdf-badge>',
})
export class StatusCellRenderer implements ICellRendererAngularComp {
  value = '';
  agInit(params: { value: string }): void {
    this.value = params.value;
  }
  refresh(): boolean {
    return false;
  }
}
