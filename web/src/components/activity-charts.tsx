import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DailyActivity } from '../api';
import { money } from '../format';
import { DataTable } from './table';

/** The series' colours: the page's accent, and two more with the same contrast against white. */
const COLOURS = { collected: '#1f4fd1', paidOut: '#b4451a', sentAbroad: '#146c2e', balance: '#1f4fd1' };

const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** A calendar day (`YYYY-MM-DD`) as people read it; it is a date of the chosen time zone already. */
const dayLabel = (date: string) => shortDate.format(new Date(`${date}T00:00:00Z`));
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/**
 * The overview's charts of the last days, drawn from the service's daily figures (never summed
 * here from pages of objects): money in and out per day, and the available balance at each day's
 * end. Each chart is an image to screen readers, with its figures as a table one click away.
 * Loaded only by the overview: the chart library is a chunk of its own.
 */
export default function ActivityCharts({ days, currency }: { days: DailyActivity[]; currency: string }) {
  const rows = days.map((day) => ({ ...day, label: dayLabel(day.date) }));
  const amount = (value: unknown) => money(Number(value), currency);
  const tooltip = { formatter: (value: unknown) => amount(value), labelClassName: 'chart-tooltip-label' };
  return (
    <div className="charts">
      <figure className="chart">
        <figcaption>Money in and out per day</figcaption>
        <div role="img" aria-label={`Bar chart of money collected, paid out and sent abroad per day over the last ${days.length} days`}>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#d6dae3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
              <YAxis tickFormatter={(value: number) => compact.format(value)} tick={{ fontSize: 12 }} width={48} />
              <Tooltip {...tooltip} />
              <Legend />
              <Bar dataKey="collected" name="Collected" fill={COLOURS.collected} />
              <Bar dataKey="paidOut" name="Paid out" fill={COLOURS.paidOut} />
              <Bar dataKey="sentAbroad" name="Sent abroad" fill={COLOURS.sentAbroad} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <details>
          <summary>Money in and out as a table</summary>
          <DataTable
            caption="Money in and out per day"
            rows={rows}
            rowKey={(row) => row.date}
            columns={[
              { header: 'Day', cell: (row) => row.label },
              { header: 'Collected', className: 'amount', cell: (row) => `${amount(row.collected)} (${row.collectedCount})` },
              { header: 'Paid out', className: 'amount', cell: (row) => `${amount(row.paidOut)} (${row.paidOutCount})` },
              { header: 'Sent abroad', className: 'amount', cell: (row) => `${amount(row.sentAbroad)} (${row.sentAbroadCount})` },
              { header: 'Fees', className: 'amount', cell: (row) => amount(row.fees) },
            ]}
          />
        </details>
      </figure>
      <figure className="chart">
        <figcaption>Available balance at each day&apos;s end</figcaption>
        <div role="img" aria-label={`Line chart of the available balance at the end of each of the last ${days.length} days`}>
          <ResponsiveContainer width="100%" height={220}>
            <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#d6dae3" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} />
              <YAxis tickFormatter={(value: number) => compact.format(value)} tick={{ fontSize: 12 }} width={48} />
              <Tooltip {...tooltip} />
              <Line type="monotone" dataKey="closingAvailable" name="Available" stroke={COLOURS.balance} strokeWidth={2} dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
        <details>
          <summary>Balance as a table</summary>
          <DataTable
            caption="Available balance at each day's end"
            rows={rows}
            rowKey={(row) => row.date}
            columns={[
              { header: 'Day', cell: (row) => row.label },
              { header: 'Available', className: 'amount', cell: (row) => amount(row.closingAvailable) },
            ]}
          />
        </details>
      </figure>
    </div>
  );
}
