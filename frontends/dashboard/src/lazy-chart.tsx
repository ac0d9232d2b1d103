import { lazy, Suspense } from 'react';
import { Skeleton } from 'primereact/skeleton';

/*
 * PrimeReact's Chart, and Chart.js behind it (which it imports on first draw), load only when a
 * chart is first shown: the dashboard's cards and tables paint without waiting for them.
 */
const PrimeChart = lazy(async () => ({ default: (await import('primereact/chart')).Chart }));

export interface LazyChartProps {
  type: 'line' | 'bar' | 'doughnut';
  data: object;
  options: object;
  /** What the chart shows, for screen readers (the canvas's accessible name). */
  label: string;
  /** CSS height of the drawing area; charts keep no aspect ratio. */
  height?: string;
}

export function LazyChart({ type, data, options, label, height = '18rem' }: LazyChartProps) {
  return (
    <Suspense fallback={<Skeleton height={height} />}>
      <PrimeChart type={type} data={data} options={options} ariaLabel={label} style={{ height }} className="dashboard-chart" />
    </Suspense>
  );
}
