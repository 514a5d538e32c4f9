import { Component, EventEmitter, Input, Output } from '@angular/core';

/** Legacy alert. Being replaced by sdf-alert (prop `type` becomes `severity`). */
@Component({
  selector: 'adp-alert',
  standalone: true,
  template: `<div class="adp-alert adp-alert--{{ type }}">{{ message }}</div>`,
})
export class AdpAlertComponent {
  @Input() type: 'info' | 'warning' | 'error' = 'info';
  @Input() message = '';
  @Input() dismissible = false;
  @Output() dismissed = new EventEmitter<void>();
}
