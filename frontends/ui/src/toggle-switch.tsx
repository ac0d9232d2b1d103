import { InputSwitch, type InputSwitchProps } from 'primereact/inputswitch';

// PrimeReact's InputSwitch gives its wrapper role="checkbox" around an <input role="switch">:
// two nested controls for one (axe: nested-interactive). The wrapper loses its role and ARIA
// here, so the input alone is the switch a screen reader and the keyboard meet.
const PLAIN_WRAPPER = { root: { role: undefined, 'aria-checked': undefined, 'aria-label': undefined, 'aria-labelledby': undefined } };

export function ToggleSwitch(props: InputSwitchProps) {
  return <InputSwitch {...props} pt={PLAIN_WRAPPER} />;
}
