import { Calendar } from 'primereact/calendar';
import { CALENDAR_DATE_FORMAT } from './file-filters.ts';

export interface DateRange {
  start: Date | null;
  end: Date | null;
}

/** Start and end date pickers (MM/dd/yyyy); the end cannot be picked before the start. */
export function DateRangeFields({ idPrefix, value, onChange }: { idPrefix: string; value: DateRange; onChange(range: DateRange): void }) {
  return (
    <>
      <div className="files-filter">
        <label htmlFor={`${idPrefix}-start-date`} className="files-filter__label">Start Date</label>
        <Calendar
          inputId={`${idPrefix}-start-date`}
          value={value.start}
          onChange={(event) => onChange({ ...value, start: (event.value as Date | null | undefined) ?? null })}
          dateFormat={CALENDAR_DATE_FORMAT}
          placeholder="MM/DD/YYYY"
          maxDate={value.end ?? undefined}
          showIcon
          showButtonBar
        />
      </div>
      <div className="files-filter">
        <label htmlFor={`${idPrefix}-end-date`} className="files-filter__label">End Date</label>
        <Calendar
          inputId={`${idPrefix}-end-date`}
          value={value.end}
          onChange={(event) => onChange({ ...value, end: (event.value as Date | null | undefined) ?? null })}
          dateFormat={CALENDAR_DATE_FORMAT}
          placeholder="MM/DD/YYYY"
          minDate={value.start ?? undefined}
          showIcon
          showButtonBar
        />
      </div>
    </>
  );
}
